/** Spending per month from stored usage: every chat's (Settings), or one chat's (its info). */
import { costByMonth, type MonthCost, monthStart } from "../../core/cost/monthly";
import type { SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { entriesWithUsageSince } from "../../db/usage";

const SPENDING_MONTHS = 3;

/** This month and the two before it, every chat. */
export async function recentSpending(now: number = Date.now()): Promise<MonthCost[]> {
  return costByMonth(await entriesWithUsageSince(monthStart(now, SPENDING_MONTHS - 1)));
}

/** Every month one chat spent in (every branch; its handoff document counts in the chat it starts). */
export async function chatSpending(sessionId: SessionId): Promise<MonthCost[]> {
  return costByMonth(await getEntries(sessionId));
}
