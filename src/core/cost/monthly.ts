/**
 * Spending per calendar month (local time), newest first: chat replies, and apart from them what
 * compaction cost (the summarizer calls of compactions and branch summaries, handoff documents:
 * entries' `sideUsage`). Pure.
 */
import type { Entry } from "../session/entries";
import { addCost, type CostTotal, NO_COST, sideUsageCost } from "./cost";

export type MonthCost = { month: string; replies: CostTotal; compaction: CostTotal };

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

export function costByMonth(entries: Iterable<Entry>): MonthCost[] {
  const months = new Map<string, MonthCost>();
  for (const e of entries) {
    const month = monthOf(e.createdAt);
    const m = months.get(month) ?? { month, replies: NO_COST, compaction: NO_COST };
    months.set(
      month,
      e.type === "message"
        ? { ...m, replies: addCost(m.replies, e) }
        : { ...m, compaction: sideUsageCost(m.compaction, e) },
    );
  }
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}
