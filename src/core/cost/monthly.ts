/** Spending per calendar month (local time), newest first. Pure. */
import type { Entry } from "../session/entries";
import { addCost, type CostTotal, NO_COST } from "./cost";

export type MonthCost = { month: string; total: CostTotal };

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
  const months = new Map<string, CostTotal>();
  for (const e of entries) {
    const m = monthOf(e.createdAt);
    months.set(m, addCost(months.get(m) ?? NO_COST, e));
  }
  return [...months].map(([month, total]) => ({ month, total })).sort((a, b) => b.month.localeCompare(a.month));
}
