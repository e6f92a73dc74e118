/**
 * A read-only view of the parts of a MiniSearch 7 index that ranking needs: its term tree (with
 * prefix and fuzzy lookup), its postings and its document statistics. MiniSearch's own `search()`
 * builds an object per matching document (with its terms and matches) and sorts them all: for a
 * word found in 85,000 messages that is most of a second, for 50 results shown. rank.ts reads the
 * same postings and keeps only the best few (see there).
 *
 * These are MiniSearch's private fields: `viewOf` checks their shape and throws when a MiniSearch
 * upgrade changed them (rank.test.ts also compares every score with MiniSearch's own search).
 */
import type MiniSearch from "minisearch";

/** One term's postings in one field: short document id → term frequency. */
export type Postings = Map<number, number>;

/** The term tree: MiniSearch's SearchableMap, as much of it as ranking uses. */
type TermTree = {
  get(term: string): Map<number, Postings> | undefined;
  atPrefix(prefix: string): Iterable<[string, Map<number, Postings>]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [Map<number, Postings>, number]>;
};

export type IndexView = {
  terms: TermTree;
  /** Short id → document id; a discarded document's postings linger until MiniSearch vacuums. */
  documentIds: Map<number, string>;
  /** Short id → length of each field (in terms). */
  fieldLength: Map<number, number[]>;
  avgFieldLength: number[];
  documentCount: number;
  /** The short id the next document added gets: every id in the index is below it. */
  nextId: number;
  /** Short id → the stored fields. */
  storedFields: Map<number, Record<string, unknown> | undefined>;
};

type Internals = {
  _index?: unknown;
  _documentIds?: unknown;
  _fieldLength?: unknown;
  _avgFieldLength?: unknown;
  _documentCount?: unknown;
  _nextId?: unknown;
  _storedFields?: unknown;
};

export function viewOf(search: MiniSearch<never> | MiniSearch<unknown>): IndexView {
  const s = search as unknown as Internals;
  const tree = s._index as Partial<TermTree> | undefined;
  if (
    typeof tree?.get !== "function" ||
    typeof tree.atPrefix !== "function" ||
    typeof tree.fuzzyGet !== "function" ||
    !(s._documentIds instanceof Map) ||
    !(s._fieldLength instanceof Map) ||
    !Array.isArray(s._avgFieldLength) ||
    typeof s._documentCount !== "number" ||
    typeof s._nextId !== "number" ||
    !(s._storedFields instanceof Map)
  ) {
    throw new Error("MiniSearch's internals are not what rank.ts reads (was it upgraded?)");
  }
  return {
    terms: tree as TermTree,
    documentIds: s._documentIds as Map<number, string>,
    fieldLength: s._fieldLength as Map<number, number[]>,
    avgFieldLength: s._avgFieldLength as number[],
    documentCount: s._documentCount,
    nextId: s._nextId,
    storedFields: s._storedFields as Map<number, Record<string, unknown> | undefined>,
  };
}
