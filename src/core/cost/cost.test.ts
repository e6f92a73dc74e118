import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { costOf, describeTotal, entryCost, formatUsd, priceOf, totalCost } from "./cost";

const reply = (
  model: string | undefined,
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
): Entry =>
  ({
    id: "e",
    sessionId: "s",
    parentId: null,
    createdAt: 0,
    type: "message",
    role: "assistant",
    content: [],
    status: "complete",
    ...(model ? { model } : {}),
    ...(usage ? { usage } : {}),
  }) as unknown as Entry;

describe("cost", () => {
  it("prices plain input and output per million tokens", () => {
    // claude-sonnet-4-5: $3 in, $15 out.
    expect(
      costOf({ input: 1_000_000, output: 100_000 }, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }),
    ).toBeCloseTo(4.5);
  });

  it("takes cache reads and writes out of the input and prices them at their own rates", () => {
    const price = priceOf("claude-sonnet-4-5-20250929");
    expect(price).toBeDefined();
    if (!price) return;
    // input 10,000 of which 6,000 read from cache and 2,000 written: 2,000 plain.
    const usd = costOf({ input: 10_000, output: 1_000, cacheRead: 6_000, cacheWrite: 2_000 }, price);
    expect(usd).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1_000_000, 10);
  });

  it("an unknown model or a reply without usage has no cost, never a guess", () => {
    expect(entryCost(reply("claude-sonnet-5-5", { input: 10, output: 10 }))).toBeNull();
    expect(entryCost(reply("my-local-llama", { input: 10, output: 10 }))).toBeNull();
    expect(entryCost(reply("gpt-4o"))).toBeNull();
    expect(entryCost(reply("openai/gpt-4o", { input: 1_000_000, output: 0 }))).toBeCloseTo(2.5);
  });

  it("totals say what part is unknown", () => {
    const total = totalCost([
      reply("gpt-4o-mini", { input: 1_000_000, output: 1_000_000 }),
      reply("claude-fable-5-2", { input: 5, output: 5 }),
      reply("gpt-4o-mini"),
    ]);
    expect(total).toEqual({ usd: expect.closeTo(0.75, 10), priced: 1, unknown: 1 });
    expect(describeTotal(total)).toBe("$0.750 + 1 reply of unknown cost");
    expect(describeTotal(totalCost([reply("x", { input: 1, output: 1 })]))).toBe("cost unknown");
    expect(describeTotal(totalCost([]))).toBe("$0");
  });

  it("formats small and large amounts", () => {
    expect(formatUsd(0.00001)).toBe("<$0.0001");
    expect(formatUsd(0.0042)).toBe("$0.0042");
    expect(formatUsd(12.345)).toBe("$12.35");
  });
});
