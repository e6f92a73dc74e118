import { describe, expect, it } from "vitest";
import { progressGuard } from "./progress-guard";
import {
  DEFAULT_COMPACTION_SETTINGS as D,
  keepRecentTokensFor,
  keptUserTurnsBudgetFor,
  thresholdFor,
} from "./settings";

describe("thresholdFor", () => {
  it("'Compact above (tokens)' caps the threshold whatever the window, and never raises it", () => {
    expect(thresholdFor(1_000_000, D)).toBe(850_000);
    expect(thresholdFor(1_000_000, { ...D, compactAboveTokens: 150_000 })).toBe(150_000);
    expect(thresholdFor(1_000_000, { ...D, thresholdPercent: 50, compactAboveTokens: 150_000 })).toBe(150_000);
    expect(thresholdFor(100_000, { ...D, compactAboveTokens: 150_000 })).toBe(83_616); // 100k − reserve
    expect(thresholdFor(1_000_000, { ...D, compactAboveTokens: 0 })).toBe(850_000);
  });

  it("defaults to window − max(15% of window, reserveTokens)", () => {
    expect(thresholdFor(200_000, D)).toBe(170_000); // 15% = 30,000 > 16,384
    expect(thresholdFor(100_000, D)).toBe(83_616); // 16,384 > 15,000
    expect(thresholdFor(1_000_000, D)).toBe(850_000);
  });

  it("prefers thresholdTokens when > 0, over thresholdPercent", () => {
    expect(thresholdFor(200_000, { ...D, thresholdTokens: 50_000, thresholdPercent: 10 })).toBe(50_000);
  });

  it("uses thresholdPercent (1–99) of the window when thresholdTokens is not set", () => {
    expect(thresholdFor(200_000, { ...D, thresholdPercent: 60 })).toBe(120_000);
    expect(thresholdFor(200_000, { ...D, thresholdPercent: 0 })).toBe(170_000);
    expect(thresholdFor(200_000, { ...D, thresholdPercent: 100 })).toBe(170_000);
    expect(thresholdFor(200_000, { ...D, thresholdTokens: -1, thresholdPercent: -1 })).toBe(170_000);
  });

  it("stays positive on windows smaller than twice the reserve", () => {
    expect(thresholdFor(14_000, D)).toBe(7_000);
    expect(thresholdFor(8_192, D)).toBe(4_096);
  });
});

describe("keptUserTurnsBudgetFor", () => {
  it("is min(15% of the window, 20,000) unless set", () => {
    expect(keptUserTurnsBudgetFor(14_000, D)).toBe(2_100);
    expect(keptUserTurnsBudgetFor(200_000, D)).toBe(20_000);
    expect(keptUserTurnsBudgetFor(200_000, { ...D, keptUserTurnsBudget: 500 })).toBe(500);
  });
});

describe("keepRecentTokensFor", () => {
  it("keeps the setting on large windows and caps it at a quarter of small ones", () => {
    expect(keepRecentTokensFor(200_000, D)).toBe(20_000);
    expect(keepRecentTokensFor(32_000, D)).toBe(8_000);
  });
});

describe("progressGuard", () => {
  it("pauses automatic compaction when the context stays above 80% of the threshold", () => {
    expect(progressGuard(136_001, 170_000)).toBe(true);
    expect(progressGuard(136_000, 170_000)).toBe(false);
    expect(progressGuard(20_000, 170_000)).toBe(false);
  });
});
