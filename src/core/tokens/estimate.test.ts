import { describe, expect, it } from "vitest";
import { CHARS_PER_TOKEN_ESTIMATE, estimateTokens } from "./estimate";

describe("estimateTokens", () => {
  it("counts about four Latin characters per token, rounding up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("a")).toBe(1);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("x".repeat(4_000))).toBe(4_000 / CHARS_PER_TOKEN_ESTIMATE);
  });

  it("counts CJK characters and emoji as a token each", () => {
    expect(estimateTokens("日本語")).toBe(3);
    expect(estimateTokens("👍👍")).toBe(2);
    expect(estimateTokens("ok 日本")).toBe(1 + 2);
    // One wide character at the very end of long Latin text still counts as one.
    expect(estimateTokens(`${"x".repeat(4_000)}日`)).toBe(1_000 + 1);
    expect(estimateTokens(`${"x".repeat(3_999)}\u2e7f`)).toBe(1_000); // just below the wide range
  });

  it("is monotonic: appending text never lowers the estimate", () => {
    let previous = 0;
    let s = "";
    for (const piece of ["Hello", " ", "world", "。", "日本", "🙂", "\n\n", "x"]) {
      s += piece;
      const n = estimateTokens(s);
      expect(n).toBeGreaterThanOrEqual(previous);
      previous = n;
    }
  });
});
