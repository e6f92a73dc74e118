import { describe, expect, it } from "vitest";
import { estimateCompaction, SUMMARIZER_OVERHEAD_TOKENS } from "./compaction-estimate";

const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

describe("estimateCompaction", () => {
  it("prices the summarizer call on the folded part and the next request's input before and after", () => {
    const e = estimateCompaction({
      contextTokens: 150_000,
      keepTokens: 20_000,
      reserveTokens: 16_384,
      summarizerWindow: 200_000,
      summarizerPrice: price,
      chatPrice: price,
    });
    expect(e.summarizer.input).toBe(130_000 + SUMMARIZER_OVERHEAD_TOKENS);
    expect(e.summarizer.output).toBe(Math.floor(16_384 * 0.8) + 128);
    expect(e.summarizer.usd).toBeCloseTo((131_000 * 3 + e.summarizer.output * 15) / 1e6, 6);
    expect(e.next.usdBefore).toBeCloseTo(0.45, 6);
    expect(e.next.after).toBe(20_000 + Math.floor(16_384 * 0.8) + SUMMARIZER_OVERHEAD_TOKENS);
    expect(e.next.usdAfter).toBeLessThan(e.next.usdBefore ?? 0);
  });

  it("no price: no dollars, still tokens; a small context never grows", () => {
    const e = estimateCompaction({
      contextTokens: 5_000,
      keepTokens: 4_000,
      reserveTokens: 16_384,
      summarizerWindow: 32_000,
      summarizerPrice: undefined,
      chatPrice: undefined,
    });
    expect(e.summarizer.usd).toBeNull();
    expect(e.next.usdAfter).toBeNull();
    expect(e.next.after).toBe(5_000);
  });
});
