/**
 * Per-entry token counts, computed once per entry and encoding and stored (the `tokenCounts`
 * cache): entries are immutable, so a count never goes stale. Compaction planning then reads no
 * message text, which keeps preparing a multi-million-token path in milliseconds.
 */
import type { Entry } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";
import { entryTokenRows, mergeEntryCounts, uncountedEntries } from "../../core/tokens/entry-tokens";
import type { TokenEncoding } from "../../core/tokens/models";
import { getTokenCounts, putTokenCounts } from "../../db/token-counts";
import { getWorker, type WorkerApi } from "../../worker/client";

/** Raw counts (uncalibrated) for every entry of `path`, counting in the worker only what is missing. */
export async function entryCountsFor(
  path: readonly Entry[],
  encoding: TokenEncoding,
  worker: Pick<WorkerApi, "countEntries"> = getWorker(),
): Promise<Record<EntryId, number>> {
  const cached = await getTokenCounts(
    path.map((e) => e.id),
    encoding,
  );
  const missing = uncountedEntries(path, cached);
  const counted = missing.length > 0 ? await worker.countEntries(encoding, missing) : {};
  if (missing.length > 0) {
    // A cache: failing to store it (quota) costs a recount later, never correctness.
    await putTokenCounts(entryTokenRows(counted, encoding)).catch(() => {});
  }
  return Object.fromEntries(mergeEntryCounts(path, cached, counted));
}
