/** Spending per month from stored usage: every chat's (Settings), or one chat's (its info). */
import { costByMonth, type MonthCost, monthStart } from "../../core/cost/monthly";
import type { SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { memoryCheckCostsOf, memoryCheckCostsSince } from "../../db/memory-check-costs";
import { entriesWithUsageSince } from "../../db/usage";

const SPENDING_MONTHS = 3;

/** This month and the two before it, every chat. */
export async function recentSpending(now: number = Date.now()): Promise<MonthCost[]> {
  const since = monthStart(now, SPENDING_MONTHS - 1);
  const [entries, checks] = await Promise.all([entriesWithUsageSince(since), memoryCheckCostsSince(since)]);
  return costByMonth(entries, checks);
}

/** Every month one chat spent in (every branch; its handoff document counts in the chat it starts). */
export async function chatSpending(sessionId: SessionId): Promise<MonthCost[]> {
  const [entries, checks] = await Promise.all([getEntries(sessionId), memoryCheckCostsOf(sessionId)]);
  return costByMonth(entries, checks);
}
