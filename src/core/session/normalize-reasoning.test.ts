/**
 * OpenAI Responses reasoning items in the context: sent back only to the provider that produced
 * them (same api AND same provider id), never to another provider, another api, or a context built
 * without a target provider (counting, handoff).
 */
import { describe, expect, it } from "vitest";
import { a, linkPath, text, u } from "../testing/entries";
import { buildContext } from "./build-context";
import type { ContextMessage } from "./context";
import { contextTokens } from "./context-tokens";
import type { ReasoningBlock } from "./entries";
import { isReasoningReplayable, normalizeMessages } from "./normalize-messages";
import { hasContent } from "./plan-context";

const t = (s: string) => ({ type: "text" as const, text: s });

const item = (provider = "openai"): ReasoningBlock => ({
  type: "reasoning",
  api: "openai-responses",
  provider,
  id: "rs_abc",
  encryptedContent: "gAAAA-opaque",
  summary: ["Checking the dates."],
});

const conversation = (block: ReasoningBlock): ContextMessage[] => [
  { role: "user", content: [t("q1")] },
  { role: "assistant", content: [block, t("a1")] },
  { role: "user", content: [t("q2")] },
];

describe("isReasoningReplayable", () => {
  it("is true only for the same api and the same provider id", () => {
    expect(isReasoningReplayable(item(), "openai-responses", "openai")).toBe(true);
    expect(isReasoningReplayable(item(), "openai-responses", "my-azure")).toBe(false);
    expect(isReasoningReplayable(item(), "openai-chat", "openai")).toBe(false);
    expect(isReasoningReplayable(item(), "anthropic-messages", "anthropic")).toBe(false);
    expect(isReasoningReplayable(item(), "openai-responses", undefined)).toBe(false);
  });

  it("is false without the encrypted content (a reply stopped before the item was done): store:false cannot look it up", () => {
    const { encryptedContent: _, ...unfinished } = item();
    expect(isReasoningReplayable(unfinished, "openai-responses", "openai")).toBe(false);
  });
});

describe("normalizeMessages with reasoning items", () => {
  it("keeps the item, in place and untouched, for the provider that produced it", () => {
    const block = item();
    const out = normalizeMessages(conversation(block), "openai-responses", "openai");
    expect(out[1]).toEqual({ role: "assistant", content: [block, t("a1")] });
    expect(out[1]?.content[0]).toBe(block);
  });

  it.each([
    ["another provider on the same api", "openai-responses", "second-openai-account"],
    ["Anthropic", "anthropic-messages", "anthropic"],
    ["a Chat Completions provider", "openai-chat", "openai"],
    ["no target provider (counting, handoff)", "openai-responses", undefined],
  ] as const)("drops it for %s, keeping the reply's text", (_, api, providerId) => {
    const out = normalizeMessages(conversation(item()), api, providerId);
    expect(out).toEqual([
      { role: "user", content: [t("q1")] },
      { role: "assistant", content: [t("a1")] },
      { role: "user", content: [t("q2")] },
    ]);
  });

  it("a reply that is only a reasoning item is not a reply: removed, the users around it merged", () => {
    const out = normalizeMessages(
      [
        { role: "user", content: [t("q1")] },
        { role: "assistant", content: [item()] },
        { role: "user", content: [t("q2")] },
      ],
      "openai-responses",
      "openai",
    );
    expect(out).toHaveLength(1);
    expect(out[0]?.role).toBe("user");
  });
});

describe("buildContext with reasoning items", () => {
  const path = linkPath([u("u1", "What day is it?"), a("a1", [item(), text("Tuesday.")]), u("u2", "And tomorrow?")]);

  it("sends the stored item back to its own provider (targetProviderId), and to nobody else", () => {
    const own = buildContext(path, { systemPrompt: "", targetApi: "openai-responses", targetProviderId: "openai" });
    expect(own.messages[1]?.content).toEqual([item(), t("Tuesday.")]);

    for (const [targetApi, targetProviderId] of [
      ["anthropic-messages", "anthropic"],
      ["openai-responses", "other"],
      ["openai-responses", undefined],
    ] as const) {
      const other = buildContext(path, { systemPrompt: "", targetApi, targetProviderId });
      expect(JSON.stringify(other)).not.toContain("rs_abc");
      expect(other.messages[1]?.content).toEqual([t("Tuesday.")]);
    }
  });

  it("a reasoning-only error partial still counts as content the user saw (not skipped)", () => {
    expect(hasContent([item()])).toBe(true);
    expect(hasContent([{ ...item(), summary: [], encryptedContent: undefined }])).toBe(false);
  });

  it("counts the summary text as context when it goes back, nothing when it does not", () => {
    const chars = (s: string) => s.length;
    const own = contextTokens(
      path,
      { systemPrompt: "", targetApi: "openai-responses", targetProviderId: "openai" },
      chars,
    );
    const other = contextTokens(path, { systemPrompt: "", targetApi: "anthropic-messages" }, chars);
    expect(own - other).toBe("Checking the dates.".length);
  });
});
