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
    expect(months[0]?.total).toEqual({ usd: expect.closeTo(2.65, 10), priced: 2, unknown: 1 });
    expect(months[1]?.total.usd).toBeCloseTo(2.5);
  });

  it("months back start on the first of the month", () => {
    expect(monthStart(new Date(2026, 0, 15).getTime(), 2)).toBe(new Date(2025, 10, 1).getTime());
  });
});
