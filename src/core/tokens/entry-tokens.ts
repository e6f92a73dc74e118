/**
 * Per-entry token counts, for the `tokenCounts` cache (`[entryId+encoding] -> count`) and for the
 * compaction engine, which plans on them instead of re-tokenizing a long path. Entries are
 * immutable, so a count keyed by entry id and encoding never goes stale: count each entry once
 * (the worker's `countEntries`), store it, reuse it.
 *
 * An entry's count is exactly the engine's `EntryTokens` (core/compaction/entry-text.ts): the
 * tokens of `entryContextText(entry)`, 0 for compaction entries. One definition, so a cached count
 * can stand in for the engine's own wherever it asks (`cachedEntryTokens`).
 * Pure: no I/O here; the worker counts, state/ reads and writes the cache through db/.
 */
import { type EntryTokens, entryTokensFrom } from "../compaction/entry-text";
import type { CountText } from "../session/context-tokens";
import type { Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import type { TokenEncoding } from "./models";

/** The `tokenCounts` primary key of an entry's count: `[entryId, encoding]`. */
export function entryTokenKey(entry: Pick<Entry, "id">, encoding: TokenEncoding): [EntryId, TokenEncoding] {
  return [entry.id, encoding];
}

/** A row of the `tokenCounts` table (the same shape as db/'s `TokenCountRow`). */
export type EntryTokenCount = { entryId: EntryId; encoding: TokenEncoding; count: number };

/** Tokens `entry` adds to the context, as the compaction engine counts it. */
export function countEntryTokens(entry: Entry, countText: CountText): number {
  return entryTokensFrom(countText)(entry);
}

/**
 * An `EntryTokens` for `prepareCompaction`: the cached count where there is one, else counted now
 * with `countText` (and not stored: the caller fills the cache with `countEntries` beforehand).
 */
export function cachedEntryTokens(cached: ReadonlyMap<EntryId, number>, countText: CountText): EntryTokens {
  const count = entryTokensFrom(countText);
  return (entry) => cached.get(entry.id) ?? count(entry);
}

/** The entries of `entries` without a count in `cached` (each once, in order): what is left to count. */
export function uncountedEntries(entries: readonly Entry[], cached: ReadonlyMap<EntryId, number>): Entry[] {
  const seen = new Set<EntryId>();
  const out: Entry[] = [];
  for (const entry of entries) {
    if (cached.has(entry.id) || seen.has(entry.id)) continue;
    seen.add(entry.id);
    out.push(entry);
  }
  return out;
}

/** Rows to store for fresh `counts` (as `countEntries` in the worker returns them). */
export function entryTokenRows(counts: Readonly<Record<EntryId, number>>, encoding: TokenEncoding): EntryTokenCount[] {
  return (Object.entries(counts) as Array<[EntryId, number]>).map(([entryId, count]) => ({ entryId, encoding, count }));
}

/** Every entry's count: from `cached` where present, else from `counted`; entries in neither are left out. */
export function mergeEntryCounts(
  entries: readonly Entry[],
  cached: ReadonlyMap<EntryId, number>,
  counted: Readonly<Record<EntryId, number>>,
): Map<EntryId, number> {
  const out = new Map<EntryId, number>();
  for (const entry of entries) {
    const count = cached.get(entry.id) ?? counted[entry.id];
    if (count !== undefined) out.set(entry.id, count);
  }
  return out;
}
