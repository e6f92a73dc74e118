import { describe, expect, it } from "vitest";
import { canImprove, chooseReading, isExact, type MeterContext, meterContextKey } from "./meter-reading";

describe("chooseReading", () => {
  it("keeps the first measurement of a context and shows it on every later visit", () => {
    const first = chooseReading(undefined, { tokens: 110, source: "calibrated" });
    expect(first).toEqual({ tokens: 110, source: "calibrated" });
    // A later visit: the calibration moved (97) or the count was not in time: the kept number stays.
    expect(chooseReading(first, { tokens: 97, source: "calibrated" })).toBe(first);
    expect(chooseReading(first, undefined)).toBe(first);
  });

  it("only a strictly better source replaces it, and an exact count is final", () => {
    const kept = { tokens: 110, source: "calibrated" } as const;
    const exact = chooseReading(kept, { tokens: 134, source: "anthropic" });
    expect(exact).toEqual({ tokens: 134, source: "anthropic" });
    expect(chooseReading(exact, { tokens: 147, source: "tokenizer" })).toBe(exact);
    expect(chooseReading(exact, { tokens: 150, source: "anthropic" })).toBe(exact);
    expect(canImprove(exact, "anthropic")).toBe(false);
    expect(canImprove(kept, "anthropic")).toBe(true);
  });

  it("never keeps a character estimate", () => {
    expect(chooseReading(undefined, { tokens: 134, source: "estimate" })).toBeUndefined();
    expect(isExact({ tokens: 1, source: "calibrated" })).toBe(false);
    expect(isExact({ tokens: 1, source: "tokenizer" })).toBe(true);
  });
});

describe("meterContextKey", () => {
  const base: MeterContext = {
    sessionId: "s",
    leafId: "e9",
    providerId: "anthropic",
    baseUrl: "https://api.anthropic.com",
    modelId: "claude-sonnet-5-5",
    encoding: "claude",
    systemPrompt: "Be brief.",
    request: "{}",
  };

  it("is the same for the same context and differs when anything the count depends on changes", () => {
    expect(meterContextKey({ ...base })).toBe(meterContextKey(base));
    for (const patch of [
      { leafId: "e10" },
      { modelId: "claude-haiku-5-5" },
      { systemPrompt: "Be long." },
      { baseUrl: "http://proxy" },
      { request: '{"thinking":"x"}' },
    ]) {
      expect(meterContextKey({ ...base, ...patch })).not.toBe(meterContextKey(base));
    }
  });
});
