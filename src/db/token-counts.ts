/**
 * The token-count cache: `[entryId+encoding] -> count`, computed by the worker and written here by
 * state/. Never authoritative: a missing row means "count it again", so nothing here throws for
 * a stale or missing entry.
 */
import type { EntryId } from "../core/session/ids";
import type { TokenCountRow } from "./rows";
import { getDb } from "./schema";

/** Cached counts for `entryIds` under `encoding`; entries without a row are absent from the map. */
export async function getTokenCounts(entryIds: readonly EntryId[], encoding: string): Promise<Map<EntryId, number>> {
  const rows = await getDb().tokenCounts.bulkGet(entryIds.map((id): [EntryId, string] => [id, encoding]));
  const counts = new Map<EntryId, number>();
  for (const row of rows) if (row) counts.set(row.entryId, row.count);
  return counts;
}

/**
 * Stores counts. Rows of entries that no longer exist (their session was deleted while the worker
 * counted) are dropped, so the cache never outlives its entries.
 */
export async function putTokenCounts(rows: readonly TokenCountRow[]): Promise<void> {
  if (rows.length === 0) return;
  const db = getDb();
  await db.transaction("rw", db.entries, db.tokenCounts, async () => {
    const entries = await db.entries.bulkGet(rows.map((r) => r.entryId));
    await db.tokenCounts.bulkPut(rows.filter((_, i) => entries[i] !== undefined));
  });
}
