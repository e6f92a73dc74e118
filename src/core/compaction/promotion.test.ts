import { describe, expect, it } from "vitest";
import { choosePromotion, type PromotionCandidate, promotionChain } from "./promotion";

const ref = (modelId: string) => ({ providerId: "p", modelId });
const candidate = (modelId: string, tokens: number, window = 1_000_000): PromotionCandidate => ({
  ref: ref(modelId),
  contextWindow: window,
  maxOutput: 32_000,
  threshold: window * 0.85,
  tokens,
});

describe("promotion", () => {
  it("follows the chain of larger siblings, each model once", () => {
    expect(promotionChain(ref("a"), {})).toEqual([]);
    expect(promotionChain(ref("a"), { a: ref("b"), b: ref("c") })).toEqual([ref("b"), ref("c")]);
    // A cycle in the settings ends the chain.
    expect(promotionChain(ref("a"), { a: ref("b"), b: ref("a") })).toEqual([ref("b")]);
  });

  it("picks the nearest sibling the context fits, before any compaction", () => {
    expect(choosePromotion([candidate("b", 150_000), candidate("c", 150_000)], "threshold")).toEqual(ref("b"));
    // b is full too: c.
    expect(choosePromotion([candidate("b", 150_000, 128_000), candidate("c", 150_000)], "threshold")).toEqual(ref("c"));
  });

  it("compacts (null) when no sibling is set or every one is full", () => {
    expect(choosePromotion([], "overflow")).toBeNull();
    expect(choosePromotion([candidate("b", 900_000, 1_000_000)], "threshold")).toBeNull();
  });

  it("the limit is the reason's: the threshold after a reply, room for a full reply before a send or after an overflow", () => {
    const c = candidate("b", 900_000, 1_000_000); // threshold 850k, room 968k
    expect(choosePromotion([c], "threshold")).toBeNull();
    expect(choosePromotion([c], "length")).toBeNull();
    expect(choosePromotion([c], "overflow")).toEqual(ref("b"));
    expect(choosePromotion([c], "preflight")).toEqual(ref("b"));
  });
});
