/**
 * What runs of "Check memory" cost (table `memoryCheckCosts`, v12), for Spending and Chat info. Its
 * side requests never enter the tree (an entry would end the compaction's Undo), so each run is a
 * row of its own: added once, when the run ends, under a fresh id — never updated, so nothing that
 * reads or re-renders can count a run twice, and a re-run is a new row.
 */
import type { SessionId } from "../core/session/ids";
import type { MemoryCheckCostRow } from "./rows";
import { getDb } from "./schema";

/** Records one run's cost. `add`, not `put`: a run's id is never written twice. */
export async function recordMemoryCheckCost(row: MemoryCheckCostRow): Promise<void> {
  await getDb().memoryCheckCosts.add(row);
}

/** Every run recorded at or after `since` (ms), every chat: Settings › Spending. */
export function memoryCheckCostsSince(since: number): Promise<MemoryCheckCostRow[]> {
  return getDb().memoryCheckCosts.where("createdAt").aboveOrEqual(since).toArray();
}

/** Every run recorded for one chat: its info. */
export function memoryCheckCostsOf(sessionId: SessionId): Promise<MemoryCheckCostRow[]> {
  return getDb().memoryCheckCosts.where("sessionId").equals(sessionId).toArray();
}
