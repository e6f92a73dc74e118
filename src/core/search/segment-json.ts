/**
 * A MiniSearch index as JSON — exactly the text `JSON.stringify(search)` gives, character for
 * character, so `MiniSearch.loadJSON` reads it back — built a slice at a time. One call of
 * `JSON.stringify` on a segment of 4,000 messages held the search worker for 50-150 ms, and a query
 * typed meanwhile waited behind it; here the generator yields after about `slice` postings (a few
 * ms of work), and its driver lets queued queries in between.
 *
 * The index must not change while it is being written: the generator checks after every pause and
 * gives up (returns null) when it did — the caller saves that segment another time. Pure: no I/O.
 */
import type MiniSearch from "minisearch";

/** Postings written per slice. */
const SLICE_POSTINGS = 20_000;

/** The parts of MiniSearch 7 that `toJSON()` writes (checked below, as minisearch-view.ts does). */
type Internals = {
  _index: Iterable<[string, Map<number, Map<number, number>>]>;
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, unknown>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, unknown>;
  _avgFieldLength: number[];
  _storedFields: Map<number, unknown>;
  _dirtCount: number;
  isVacuuming: boolean;
};

function internalsOf(search: MiniSearch<never> | MiniSearch<unknown>): Internals {
  const s = search as unknown as Partial<Record<keyof Internals, unknown>>;
  if (
    typeof (s._index as Partial<Iterable<unknown>> | undefined)?.[Symbol.iterator] !== "function" ||
    typeof s._documentCount !== "number" ||
    typeof s._nextId !== "number" ||
    !(s._documentIds instanceof Map) ||
    typeof s._fieldIds !== "object" ||
    !(s._fieldLength instanceof Map) ||
    !Array.isArray(s._avgFieldLength) ||
    !(s._storedFields instanceof Map) ||
    typeof s._dirtCount !== "number" ||
    typeof s.isVacuuming !== "boolean"
  ) {
    throw new Error("MiniSearch's internals are not what segment-json.ts writes (was it upgraded?)");
  }
  return search as unknown as Internals;
}

/** What changes whenever the index does: an add (nextId), a discard (count, dirt), a vacuum (dirt). */
const stateOf = (s: Internals) => `${s._nextId}:${s._documentCount}:${s._dirtCount}:${s.isVacuuming}`;

/**
 * `JSON.stringify(search)`, a slice at a time (see above); null when the index changed between
 * slices or was being vacuumed (MiniSearch vacuums in the background, rewriting postings).
 */
export function* segmentJson(
  search: MiniSearch<never> | MiniSearch<unknown>,
  slice: number = SLICE_POSTINGS,
): Generator<void, string | null, void> {
  const s = internalsOf(search);
  if (s.isVacuuming) return null;
  const state = stateOf(s);
  // The key order of MiniSearch's toJSON(); integer-keyed objects list their keys in ascending
  // order however the Map was filled, as Object.fromEntries does there.
  const head =
    `{"documentCount":${JSON.stringify(s._documentCount)},"nextId":${JSON.stringify(s._nextId)},` +
    `"documentIds":${JSON.stringify(Object.fromEntries(s._documentIds))},` +
    `"fieldIds":${JSON.stringify(s._fieldIds)},` +
    `"fieldLength":${JSON.stringify(Object.fromEntries(s._fieldLength))},` +
    `"averageFieldLength":${JSON.stringify(s._avgFieldLength)},` +
    `"storedFields":${JSON.stringify(Object.fromEntries(s._storedFields))},` +
    `"dirtCount":${JSON.stringify(s._dirtCount)},"index":[`;
  // A pause after the documents' part too (a slice of its own, however small the index).
  yield;
  if (stateOf(s) !== state) return null;
  const terms: string[] = [];
  let written = 0;
  for (const [term, fieldIndex] of s._index) {
    const data: Record<string, Record<string, number>> = {};
    for (const [fieldId, postings] of fieldIndex) {
      data[fieldId] = Object.fromEntries(postings);
      written += postings.size;
    }
    terms.push(JSON.stringify([term, data]));
    if (written >= slice) {
      written = 0;
      yield;
      if (stateOf(s) !== state) return null;
    }
  }
  return `${head}${terms.join(",")}],"serializationVersion":2}`;
}
