import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attachmentTokens } from "../attachments/attachment-tokens";
import { a, blobId, branchSummary, compaction, type EntrySpec, handoff, linkPath, tool, u } from "../testing/entries";
import { estimateTokens } from "../tokens/estimate";
import { buildContext } from "./build-context";
import { contextBlockText, type LlmContext } from "./context";
import { contextTokens, MESSAGE_OVERHEAD_TOKENS } from "./context-tokens";
import type { ApiKind, Block, MessageStatus, ThinkingBlock } from "./entries";

const API = fc.constantFrom<ApiKind>("anthropic-messages", "openai-chat");
const SOME_TEXT = fc.constantFrom("", " ", "\n", "hello", "  padded  ", "multi\n\nline", "日本語", "---");

const thinkingBlock: fc.Arbitrary<ThinkingBlock> = fc.record(
  {
    type: fc.constant("thinking" as const),
    text: SOME_TEXT,
    signature: fc.constantFrom("sig", ""),
    redactedData: fc.constant("opaque"),
    signedBy: API,
  },
  { requiredKeys: ["type", "text"] },
);

const block: fc.Arbitrary<Block> = fc.oneof(
  SOME_TEXT.map((t): Block => ({ type: "text", text: t })),
  SOME_TEXT.map((t): Block => ({ type: "text", text: t })),
  thinkingBlock,
  fc.constant<Block>({ type: "image", blobId: blobId("b"), mimeType: "image/png" }),
  fc
    .record({ name: fc.constantFrom("search", "read"), args: fc.jsonValue() })
    .map(({ name, args }): Block => ({ type: "tool_call", id: "c", name, args })),
  fc
    .record({ text: SOME_TEXT, isError: fc.boolean() })
    .map(({ text, isError }): Block => ({ type: "tool_result", callId: "c", text, isError })),
);

const STATUS = fc.constantFrom<MessageStatus>("complete", "stopped", "interrupted", "error");

/** A spec factory: given its index and the ids before it, makes one entry. */
type SpecMaker = (id: string, earlier: readonly string[]) => EntrySpec;

const specMaker: fc.Arbitrary<SpecMaker> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(fc.array(block, { maxLength: 4 }), STATUS).map(
      ([c, s]): SpecMaker =>
        (id) =>
          u(id, c, { status: s }),
    ),
  },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.array(block, { maxLength: 4 }), STATUS).map(
      ([c, s]): SpecMaker =>
        (id) =>
          a(id, c, { status: s }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.array(block, { maxLength: 2 }).map(
      (c): SpecMaker =>
        (id) =>
          tool(id, c),
    ),
  },
  {
    weight: 1,
    arbitrary: SOME_TEXT.map(
      (t): SpecMaker =>
        (id) =>
          branchSummary(id, t),
    ),
  },
  {
    weight: 1,
    arbitrary: SOME_TEXT.map(
      (t): SpecMaker =>
        (id) =>
          handoff(id, t),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(SOME_TEXT, fc.nat(), fc.array(fc.nat(), { maxLength: 4 }), fc.boolean()).map(
      ([summary, firstPick, keptPicks, nullFirst]): SpecMaker =>
        (id, earlier) =>
          compaction(id, {
            summary,
            firstKept: nullFirst || earlier.length === 0 ? null : (earlier[firstPick % earlier.length] ?? null),
            kept: [...keptPicks.map((k) => earlier[k % Math.max(1, earlier.length)] ?? "missing"), "missing"],
          }),
    ),
  },
);

const randomSpecs = fc.array(specMaker, { maxLength: 25 }).map((makers) => {
  const ids: string[] = [];
  return makers.map((make, i) => {
    const spec = make(`e${i}`, ids);
    ids.push(`e${i}`);
    return spec;
  });
});
const randomPath = randomSpecs.map(linkPath);

function countByHand(ctx: LlmContext): number {
  let n = ctx.system ? MESSAGE_OVERHEAD_TOKENS + estimateTokens(ctx.system) : 0;
  for (const m of ctx.messages) {
    n += MESSAGE_OVERHEAD_TOKENS;
    // Images and PDFs cost their estimate, everything else its text.
    for (const b of m.content)
      n += b.type === "image" || b.type === "document" ? attachmentTokens(b) : estimateTokens(contextBlockText(b));
  }
  return n;
}

describe("buildContext properties (random paths)", () => {
  it("never has two same-role messages in a row, never opens with the assistant, never sends foreign thinking", () => {
    fc.assert(
      fc.property(randomPath, API, fc.constantFrom("", "sys"), (path, targetApi, systemPrompt) => {
        const { messages } = buildContext(path, { systemPrompt, targetApi });
        expect(messages[0]?.role ?? "user").toBe("user");
        for (let i = 1; i < messages.length; i++) expect(messages[i]?.role).not.toBe(messages[i - 1]?.role);
        for (const m of messages) {
          expect(m.content.length).toBeGreaterThan(0);
          for (const b of m.content) {
            if (b.type === "thinking") {
              expect(m.role).toBe("assistant");
              // stated independently of isThinkingReplayable, so a bug there cannot hide here
              expect(b.signedBy).toBe(targetApi);
              if (targetApi === "anthropic-messages") expect(Boolean(b.signature || b.redactedData)).toBe(true);
            } else if (b.type === "image" || b.type === "document") {
              // Attachments travel by reference, in user messages only.
              expect(m.role).toBe("user");
            } else {
              expect(b.type).toBe("text");
              expect(contextBlockText(b).trim()).not.toBe("");
            }
          }
          if (m.role === "assistant") expect(m.content.some((b) => b.type === "text")).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("contextTokens equals the count of exactly what buildContext returns", () => {
    fc.assert(
      fc.property(randomPath, API, (path, targetApi) => {
        const opts = { systemPrompt: "You are helpful.", targetApi };
        expect(contextTokens(path, opts, estimateTokens)).toBe(countByHand(buildContext(path, opts)));
      }),
      { numRuns: 300 },
    );
  });

  it("sends nothing of an earlier compaction once a later one exists", () => {
    fc.assert(
      fc.property(randomSpecs, (specs) => {
        const withTwo = linkPath([
          ...specs,
          compaction("first", { summary: "FIRST-SUMMARY-MARK", firstKept: null }),
          u("between", "x"),
          compaction("second", { summary: "second", firstKept: null }),
        ]);
        const seen = buildContext(withTwo, { systemPrompt: "", targetApi: "openai-chat" })
          .messages.flatMap((m) => m.content.map(contextBlockText))
          .join("\n");
        expect(seen).not.toContain("FIRST-SUMMARY-MARK");
        expect(seen).toContain("second");
      }),
      { numRuns: 100 },
    );
  });
});
