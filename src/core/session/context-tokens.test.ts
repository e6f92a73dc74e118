import { describe, expect, it } from "vitest";
import { STEP_ITEMS } from "../steps";
import { a, linkPath, text, thinking, u } from "../testing/entries";
import { buildContext } from "./build-context";
import { contextBlockText } from "./context";
import { contextTokens, contextTokensSteps, countContextTokens, MESSAGE_OVERHEAD_TOKENS } from "./context-tokens";
import { MERGE_DELIMITER } from "./normalize-messages";

/** One token per character: makes the arithmetic visible. */
const chars = (s: string) => s.length;

describe("contextTokens", () => {
  it("counts the system prompt and every block of what buildContext returns, plus overhead per message", () => {
    const sig = thinking("abc", { signature: "opaque-signature", signedBy: "anthropic-messages" });
    const path = linkPath([u("u1", "12345"), a("a1", [sig, text("123")]), u("u2", "1")]);
    const opts = { systemPrompt: "sys", targetApi: "anthropic-messages" as const };
    // system 3, messages 5 + (3 + 3) + 1; four messages counting the system prompt; signature not counted
    expect(contextTokens(path, opts, chars)).toBe(3 + 5 + 6 + 1 + 4 * MESSAGE_OVERHEAD_TOKENS);
    expect(contextTokens(path, opts, chars)).toBe(countContextTokens(buildContext(path, opts), chars));
  });

  it("counts merged and dropped content the way it is sent", () => {
    const path = linkPath([
      u("u1", "ab"),
      u("u2", "cd"),
      a("a1", [thinking("foreign", { signedBy: "openai-chat" }), text("x")]),
    ]);
    const opts = { systemPrompt: "", targetApi: "anthropic-messages" as const };
    const built = buildContext(path, opts);
    expect(built.messages).toHaveLength(2);
    const first = built.messages[0]?.content[0];
    const merged = first ? contextBlockText(first) : "";
    expect(contextTokens(path, opts, chars)).toBe(merged.length + 1 + 2 * MESSAGE_OVERHEAD_TOKENS);
  });

  it("is zero for an empty path with no system prompt", () => {
    expect(contextTokens([], { systemPrompt: "", targetApi: "openai-chat" }, chars)).toBe(0);
  });
});

describe("contextTokensSteps", () => {
  const opts = { systemPrompt: "sys", targetApi: "anthropic-messages" as const };

  /** Runs `steps` to the end, counting its pauses. */
  function drive<T>(steps: Generator<void, T, void>): { value: T; pauses: number } {
    let pauses = 0;
    for (;;) {
      const next = steps.next();
      if (next.done) return { value: next.value, pauses };
      pauses++;
    }
  }

  it("pauses every few entries of a long path and counts what is sent", () => {
    const specs = Array.from({ length: 600 }, (_, i) => (i % 2 === 0 ? u(`u${i}`, "12345") : a(`a${i}`, "123")));
    const { value, pauses } = drive(contextTokensSteps(linkPath(specs), opts, chars));
    expect(value).toBe(3 + 300 * 5 + 300 * 3 + 601 * MESSAGE_OVERHEAD_TOKENS);
    // Building (600 entries, 600 messages to normalize, 600 to pair) and counting (600): a pause per STEP_ITEMS each.
    expect(pauses).toBeGreaterThanOrEqual(Math.floor((4 * 600) / STEP_ITEMS) - 4);
  });

  it("merges a run of same-role messages across its pauses as sent at once", () => {
    const specs = [...Array.from({ length: 3 * STEP_ITEMS }, (_, i) => u(`u${i}`, "ab")), a("a", "x")];
    const path = linkPath(specs);
    const merged = 3 * STEP_ITEMS * 2 + (3 * STEP_ITEMS - 1) * MERGE_DELIMITER.length;
    expect(drive(contextTokensSteps(path, opts, chars)).value).toBe(3 + merged + 1 + 3 * MESSAGE_OVERHEAD_TOKENS);
    expect(drive(contextTokensSteps(path, opts, chars)).value).toBe(contextTokens(path, opts, chars));
  });

  it("gives each of two runs interleaved step by step its own result", () => {
    const long = linkPath(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? u(`u${i}`, "abcd") : a(`a${i}`, "ef"))));
    const short = linkPath(Array.from({ length: 130 }, (_, i) => (i % 2 === 0 ? u(`v${i}`, "x") : a(`b${i}`, "y"))));
    const one = contextTokensSteps(long, opts, chars);
    const two = contextTokensSteps(short, opts, chars);
    let r1: IteratorResult<void, number> | undefined;
    let r2: IteratorResult<void, number> | undefined;
    while (!r1?.done || !r2?.done) {
      if (!r1?.done) r1 = one.next();
      if (!r2?.done) r2 = two.next();
    }
    expect(r1.value).toBe(contextTokens(long, opts, chars));
    expect(r2.value).toBe(contextTokens(short, opts, chars));
  });
});
