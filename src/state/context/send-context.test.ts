import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext } from "../../core/session/build-context";
import type { Block, Entry, MessageEntry } from "../../core/session/entries";
import { a, compaction, linkPath, thinking, tool, u } from "../../core/testing/entries";
import { type ChatTarget, chatTarget, isTargetError } from "../models/chat-target";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { contextBuilds } from "./context-builds";
import { appendedTokensAtMost, contextTokensAtMost } from "./fits";
import { requestFor, sendContext, tokensAtMostWithReply } from "./send-context";

const withKeys = { ...DEFAULT_SETTINGS, providers: DEFAULT_SETTINGS.providers.map((p) => ({ ...p, apiKey: "k" })) };

function targetFor(providerId: string, modelId: string, ratio?: number): ChatTarget {
  const t = chatTarget(undefined, { ...withKeys, defaultModel: { providerId, modelId } });
  if (isTargetError(t)) throw new Error(t.message);
  return ratio === undefined ? t : { ...t, calibration: { ratio, samples: 3 } as ChatTarget["calibration"] };
}
const OPENAI = targetFor("openai", "gpt-4o");
const CLAUDE = targetFor("anthropic", "claude-sonnet-4-5", 1.3);

const reasoning = (provider: string): Block => ({
  type: "reasoning",
  api: "openai-responses",
  provider,
  id: "rs_1",
  encryptedContent: "opaque",
  summary: ["Thought about it."],
});

/** The bound of `path`'s context as the meter's metric builds it (no provider named). */
const metricBound = (path: readonly Entry[], target: ChatTarget) =>
  contextTokensAtMost(buildContext(path, { systemPrompt: target.systemPrompt, targetApi: target.api }), target);

describe("sendContext: one build per step", () => {
  const path = linkPath([u("u1", "Hello"), a("a1", "Hi there"), u("u2", "And now?")]);

  it("builds once: the request for the provider, and the metric's bound from the same build", () => {
    const before = contextBuilds();
    const built = sendContext(path, OPENAI);
    expect(contextBuilds() - before).toBe(1);
    expect(built.tokensAtMost).toBe(metricBound(path, OPENAI));
    // The reply reuses it for this path and target; another path object is built afresh.
    expect(requestFor(path, OPENAI, built)).toBe(built.request);
    expect(contextBuilds() - before).toBe(1);
    requestFor([...path], OPENAI, built);
    expect(contextBuilds() - before).toBe(2);
  });

  it("with the provider's own reasoning items on the path, the bound is still the metric's (a second build)", () => {
    const own = linkPath([
      u("u1", "Hello"),
      a("a1", [reasoning("openai"), { type: "text", text: "Hi" }]),
      u("u2", "?"),
    ]);
    const before = contextBuilds();
    const built = sendContext(own, OPENAI);
    expect(contextBuilds() - before).toBe(2);
    expect(built.request.messages[1]?.content.some((b) => b.type === "reasoning")).toBe(true);
    expect(built.tokensAtMost).toBe(metricBound(own, OPENAI));
  });

  it("the bound after a reply is from the step's build, and none for a reply to another target", () => {
    const built = sendContext(path, OPENAI);
    const reply = linkPath([...[u("u1", "Hello"), a("a1", "Hi there"), u("u2", "And now?")], a("r", "Done.")])[3];
    if (reply?.type !== "message") throw new Error("no reply");
    expect(tokensAtMostWithReply(built, reply, OPENAI)).toBe(
      built.tokensAtMost + appendedTokensAtMost(reply, OPENAI, path.at(-1)),
    );
    expect(tokensAtMostWithReply(built, reply, CLAUDE)).toBeNull();
  });
});

describe("appendedTokensAtMost: bound(path) + bound(reply) is a bound of path + reply", () => {
  const words = fc.stringMatching(/^[a-zé€ 😀\n#`]{0,40}$/u);
  const block: fc.Arbitrary<Block> = fc.oneof(
    words.map((t) => ({ type: "text", text: t }) as Block),
    words.map((t) => thinking(t, { signature: "sig", signedBy: "anthropic-messages" }) as Block),
    fc.constant(reasoning("openai")),
    fc
      .record({ name: words, args: fc.jsonValue() })
      .map(({ name, args }) => ({ type: "tool_call", id: "c", name, args }) as Block),
  );
  const message = fc.tuple(fc.constantFrom("u", "a", "tool"), fc.array(block, { minLength: 0, maxLength: 3 }));
  const scenario = fc.record({
    history: fc.array(message, { minLength: 0, maxLength: 8 }),
    compacted: fc.boolean(),
    reply: fc.array(block, { minLength: 0, maxLength: 4 }),
    status: fc.constantFrom("complete", "stopped", "error"),
    continues: fc.boolean(),
  });

  it("for both encodings, any path, any reply (thinking, reasoning, tools, a continuation, an error)", () => {
    fc.assert(
      fc.property(scenario, ({ history, compacted, reply, status, continues }) => {
        const specs = history.map(([role, content], i) =>
          role === "u"
            ? u(
                `m${i}`,
                content.filter((b) => b.type === "text"),
              )
            : role === "a"
              ? a(`m${i}`, content)
              : tool(`m${i}`, content),
        );
        if (compacted && specs.length > 1) specs.splice(1, 0, compaction("c", { summary: "So far.", firstKept: "m1" }));
        const last = specs.at(-1);
        const replySpec = a("reply", reply, {
          status: status as MessageEntry["status"],
          ...(continues && last?.type === "message" && last.role === "assistant" ? { continues: last.id } : {}),
        });
        const full = linkPath([...specs, replySpec]);
        const path = full.slice(0, -1);
        const entry = full.at(-1) as MessageEntry;
        for (const target of [OPENAI, CLAUDE]) {
          const request = buildContext(path, { systemPrompt: "Be brief.", targetApi: target.api });
          const t = { ...target, systemPrompt: "Be brief." };
          expect(contextTokensAtMost(request, t) + appendedTokensAtMost(entry, t, path.at(-1))).toBeGreaterThanOrEqual(
            metricBound(full, t),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});
