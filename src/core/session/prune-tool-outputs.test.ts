import { describe, expect, it } from "vitest";
import { a, compaction, linkPath, tool, u } from "../testing/entries";
import { buildContext } from "./build-context";
import { contextBlockText } from "./context";
import type { Block } from "./entries";
import {
  PRUNE_MIN_SAVINGS_TOKENS,
  PRUNE_PROTECT_TOKENS,
  prunedOutputText,
  prunedToolOutputs,
} from "./prune-tool-outputs";

/** Text of exactly `tokens` estimated tokens (4 ASCII characters each). */
const sized = (tokens: number): string => "abcd".repeat(tokens);
const call = (id: string, name: string): Block => ({ type: "tool_call", id, name, args: { path: `${id}.ts` } });
const result = (id: string, tokens: number): Block => ({
  type: "tool_result",
  callId: id,
  text: sized(tokens),
  isError: false,
});

/** One tool round per size, oldest first: assistant call, tool result. */
function rounds(specs: ReadonlyArray<[name: string, tokens: number]>) {
  return linkPath([
    u("u1", "go"),
    ...specs.flatMap(([name, tokens], i) => [
      a(`c${i}`, [call(`t${i}`, name)]),
      tool(`r${i}`, [result(`t${i}`, tokens)]),
    ]),
  ]);
}

const sentText = (path: ReturnType<typeof rounds>) =>
  buildContext(path, { systemPrompt: "", targetApi: "anthropic-messages" })
    .messages.flatMap((m) => m.content.map(contextBlockText))
    .join("\n");

describe("prunedToolOutputs", () => {
  it("protects the newest 40,000 tool-output tokens and prunes what lies beyond them", () => {
    // newest → oldest: 30k (protected), 10k (protected: exactly 40k), 25k (beyond).
    const path = rounds([
      ["bash", 25_000],
      ["bash", 10_000],
      ["bash", 30_000],
    ]);
    expect(
      prunedToolOutputs(
        rounds([
          ["bash", 25_000],
          ["bash", 10_000],
          ["bash", 29_999],
        ]),
      ).size,
    ).toBe(0);
    const pruned = prunedToolOutputs(path);
    expect([...pruned.keys()]).toEqual(["r0"]);
    expect(pruned.get(path[2]?.id ?? ("" as never))?.get(0)).toBe(25_000);
  });

  it("prunes nothing when the savings stay under 20,000 tokens", () => {
    const path = rounds([
      ["bash", PRUNE_MIN_SAVINGS_TOKENS - 1],
      ["bash", PRUNE_PROTECT_TOKENS],
    ]);
    expect(prunedToolOutputs(path).size).toBe(0);
    const enough = rounds([
      ["bash", PRUNE_MIN_SAVINGS_TOKENS],
      ["bash", PRUNE_PROTECT_TOKENS],
    ]);
    expect(prunedToolOutputs(enough).size).toBe(1);
  });

  it("the result that crosses the protection line is kept whole; the next older one is pruned", () => {
    const path = rounds([
      ["bash", 25_000],
      ["bash", 30_000],
      ["bash", 39_000],
    ]);
    expect([...prunedToolOutputs(path).keys()]).toEqual(["r0"]);
    // The newest result is never pruned, however large.
    expect(prunedToolOutputs(rounds([["bash", 90_000]])).size).toBe(0);
  });

  it("never prunes read or skill results, but counts them toward the protected tokens", () => {
    const path = rounds([
      ["read", 30_000],
      ["skill", 30_000],
      ["grep", 25_000],
      ["read", 40_000],
    ]);
    expect([...prunedToolOutputs(path).keys()]).toEqual(["r2"]);
  });

  it("uses the result's own toolName before the call's", () => {
    const path = linkPath([
      u("u1", "go"),
      tool("r0", [{ type: "tool_result", callId: "x", toolName: "read", text: sized(30_000), isError: false }]),
      tool("r1", [{ type: "tool_result", callId: "y", toolName: "bash", text: sized(30_000), isError: false }]),
      tool("r2", [{ type: "tool_result", callId: "z", toolName: "bash", text: sized(40_000), isError: false }]),
    ]);
    expect([...prunedToolOutputs(path).keys()]).toEqual(["r1"]);
  });

  it("looks only at the sent part: folded entries before `from` are neither counted nor pruned", () => {
    const path = rounds([
      ["bash", 30_000],
      ["bash", 30_000],
      ["bash", 40_000],
    ]);
    expect([...prunedToolOutputs(path).keys()].sort()).toEqual(["r0", "r1"]);
    // From c1 on: r1 (30k) is still beyond the newest 40k; r0 is not looked at.
    expect([...prunedToolOutputs(path, 3).keys()]).toEqual(["r1"]);
    expect(prunedToolOutputs(path, 5).size).toBe(0);
  });

  it("is deterministic: the same path gives the same request, and the entries are untouched", () => {
    const path = rounds([
      ["bash", 25_000],
      ["bash", 45_000],
    ]);
    const before = JSON.stringify(path);
    const first = sentText(path);
    expect(sentText(structuredClone(path))).toBe(first);
    expect(JSON.stringify(path)).toBe(before);
    expect(first).toContain(prunedOutputText(25_000));
    expect(first).toContain("[Output truncated - 25000 tokens]");
    // Only the newest result's text is still sent.
    expect(first).toContain(sized(45_000));
    expect(first.length).toBeLessThan(sized(45_000).length + 1_000);
  });

  it("the context builder prunes only within the latest compaction's kept region", () => {
    const path = linkPath([
      ...rounds([
        ["bash", 25_000],
        ["bash", 45_000],
      ]).map(({ parentId: _p, createdAt: _c, sessionId: _s, ...e }) => e),
      compaction("k", { summary: "S", firstKept: "c1" }),
      u("u2", "more"),
    ]);
    // Kept region: c1, r1 (45k, protected). r0 is folded, so nothing is pruned.
    expect(sentText(path)).not.toContain("[Output truncated");
  });
});
