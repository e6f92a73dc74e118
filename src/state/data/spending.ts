/** The spending summary for Settings: this month and the two before it, from stored usage. */
import { costByMonth, type MonthCost, monthStart } from "../../core/cost/monthly";
import { entriesWithUsageSince } from "../../db/usage";

const SPENDING_MONTHS = 3;

export async function recentSpending(now: number = Date.now()): Promise<MonthCost[]> {
  return costByMonth(await entriesWithUsageSince(monthStart(now, SPENDING_MONTHS - 1)));
}
