import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { costByMonth, monthStart } from "./monthly";

const reply = (createdAt: number, model: string): Entry =>
  ({
    id: `e${createdAt}`,
    sessionId: "s",
    parentId: null,
    createdAt,
    type: "message",
    role: "assistant",
    content: [],
    status: "complete",
    model,
    usage: { input: 1_000_000, output: 0 },
  }) as unknown as Entry;

describe("costByMonth", () => {
  it("sums each calendar month apart, newest first, unknown prices counted apart", () => {
    const nov = new Date(2026, 10, 20).getTime();
    const oct = new Date(2026, 9, 3).getTime();
    const months = costByMonth([
      reply(oct, "gpt-4o"),
      reply(nov, "gpt-4o"),
      reply(nov, "gpt-4o-mini"),
      reply(nov, "x"),
    ]);
    expect(months.map((m) => m.month)).toEqual(["2026-11", "2026-10"]);
    expect(months[0]?.replies).toEqual({ usd: expect.closeTo(2.65, 10), priced: 2, unknown: 1 });
    expect(months[1]?.replies.usd).toBeCloseTo(2.5);
    expect(months[0]?.compaction).toEqual({ usd: 0, priced: 0, unknown: 0 });
  });

  it("compaction, branch summaries and handoffs count apart from replies, each model at its price", () => {
    const nov = new Date(2026, 10, 20).getTime();
    const side = (type: string, sideUsage: unknown): Entry =>
      ({
        id: `x${type}`,
        sessionId: "s",
        parentId: null,
        createdAt: nov,
        type,
        model: "gpt-4o",
        sideUsage,
      }) as unknown as Entry;
    const months = costByMonth([
      reply(nov, "gpt-4o"),
      side("compaction", [
        { model: "gpt-4o-mini", usage: { input: 1_000_000, output: 0 } },
        { model: "gpt-4o", usage: { input: 0, output: 100_000 } },
      ]),
      side("branch_summary", [{ model: "x", usage: { input: 5, output: 5 } }]),
      side("handoff", [{ model: "gpt-4o", usage: { input: 1_000_000, output: 0 } }]),
      side("compaction", undefined),
    ]);
    expect(months).toHaveLength(1);
    expect(months[0]?.replies).toEqual({ usd: expect.closeTo(2.5, 10), priced: 1, unknown: 0 });
    // 0.15 (mini input) + 1.00 (gpt-4o output) + 2.50 (handoff input); the unpriced model apart.
    expect(months[0]?.compaction).toEqual({ usd: expect.closeTo(3.65, 10), priced: 3, unknown: 1 });
  });

  it("memory checks count apart from replies and compaction, in their month, each model at its price", () => {
    const nov = new Date(2026, 10, 20).getTime();
    const dec = new Date(2026, 11, 1).getTime();
    const months = costByMonth(
      [reply(nov, "gpt-4o")],
      [
        {
          createdAt: nov,
          usage: [
            { model: "gpt-4o", usage: { input: 1_000_000, output: 0 } },
            { model: "gpt-4o-mini", usage: { input: 1_000_000, output: 0 } },
          ],
        },
        { createdAt: nov, usage: [{ model: "x", usage: { input: 5, output: 5 } }] },
        { createdAt: dec, usage: [{ model: "gpt-4o", usage: { input: 0, output: 100_000 } }] },
        { createdAt: dec, usage: [] },
      ],
    );
    expect(months.map((m) => m.month)).toEqual(["2026-12", "2026-11"]);
    const [december, november] = months;
    // 2.50 (gpt-4o input) + 0.15 (mini input); the unpriced model apart.
    expect(november?.memoryChecks).toEqual({ usd: expect.closeTo(2.65, 10), priced: 2, unknown: 1 });
    expect(november?.replies).toEqual({ usd: expect.closeTo(2.5, 10), priced: 1, unknown: 0 });
    expect(november?.compaction).toEqual({ usd: 0, priced: 0, unknown: 0 });
    // A month with only memory checks is a month of its own.
    expect(december).toEqual({
      month: "2026-12",
      replies: { usd: 0, priced: 0, unknown: 0 },
      compaction: { usd: 0, priced: 0, unknown: 0 },
      memoryChecks: { usd: expect.closeTo(1, 10), priced: 1, unknown: 0 },
    });
  });

  it("months back start on the first of the month", () => {
    expect(monthStart(new Date(2026, 0, 15).getTime(), 2)).toBe(new Date(2025, 10, 1).getTime());
  });
});
