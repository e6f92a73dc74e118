/**
 * Spending per calendar month (local time), newest first: chat replies, and apart from them what
 * compaction cost (the summarizer calls of compactions and branch summaries, handoff documents:
 * entries' `sideUsage`) and what memory checks cost ("Check memory" on a compaction card: its
 * side requests never enter the tree, so each run is a record of its own). Pure.
 */
import type { Entry, ModelUsage } from "../session/entries";
import { addCost, type CostTotal, modelUsageCost, NO_COST, sideUsageCost } from "./cost";

export type MonthCost = { month: string; replies: CostTotal; compaction: CostTotal; memoryChecks: CostTotal };

/**
 * What one run of "Check memory" reported: its drafting, answer and grader requests, summed per
 * model. One record per run (a re-run is a new cost), written once when the run ends.
 */
export type MemoryCheckCost = { readonly createdAt: number; readonly usage: readonly ModelUsage[] };

/** A month nothing was spent in. */
export const emptyMonth = (month: string): MonthCost => ({
  month,
  replies: NO_COST,
  compaction: NO_COST,
  memoryChecks: NO_COST,
});

/** "2026-11" for a time in the user's local calendar. */
export function monthOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}`;
}

/** The first instant of the month `monthsBack` months before `now`'s (local time). */
export function monthStart(now: number, monthsBack = 0): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth() - monthsBack, 1).getTime();
}

export function costByMonth(entries: Iterable<Entry>, memoryChecks: Iterable<MemoryCheckCost> = []): MonthCost[] {
  const months = new Map<string, MonthCost>();
  const add = (createdAt: number, to: (m: MonthCost) => MonthCost): void => {
    const month = monthOf(createdAt);
    months.set(month, to(months.get(month) ?? emptyMonth(month)));
  };
  for (const e of entries) {
    add(e.createdAt, (m) =>
      e.type === "message"
        ? { ...m, replies: addCost(m.replies, e) }
        : { ...m, compaction: sideUsageCost(m.compaction, e) },
    );
  }
  for (const c of memoryChecks)
    add(c.createdAt, (m) => ({ ...m, memoryChecks: modelUsageCost(m.memoryChecks, c.usage) }));
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}
