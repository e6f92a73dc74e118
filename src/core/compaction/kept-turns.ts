/**
 * Which user turns a compaction keeps verbatim (DESIGN §4.3): user turns are never re-generated.
 *
 * The candidates are the previous compaction's kept set (those still on the path before the new
 * cut) and every user turn in the newly folded region, in path (= chronological) order. Then:
 * 1. a turn over `keptUserTurnMaxTokens` (a large paste) is not kept: it is folded into the summary
 *    (the serializer flags it for the summarizer, the digest carries a visible note, and the ids
 *    are reported for the card);
 * 2. while the rest exceeds `keptUserTurnsBudget`, the OLDEST is evicted (reported too). Eviction
 *    drops the verbatim copy only: the turn was in the summarizer's input when it was folded.
 *
 * Pure: no I/O; sizes come from the injected `entryTokens`.
 */
import type { CompactionEntry, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { planContext } from "../session/plan-context";
import { type EntryTokens, isUserTurn } from "./entry-text";

export type KeptTurnsInput = {
  path: readonly Entry[];
  /** The latest compaction before this one, if any: its kept set carries over. */
  previous: CompactionEntry | null;
  /** Start of the region folded now. */
  start: number;
  /** Index of the first entry of the new kept region (`path.length` if everything is folded). */
  firstKeptIndex: number;
  entryTokens: EntryTokens;
  maxTurnTokens: number;
  budgetTokens: number;
};

export type KeptTurns = {
  /** Kept verbatim, chronological. */
  keptUserTurnIds: EntryId[];
  keptTokens: number;
  /** Dropped from the kept set to fit the budget, oldest first. */
  evictedUserTurnIds: EntryId[];
  /** Too long to keep verbatim: folded into the summary. */
  oversized: Array<{ id: EntryId; tokens: number }>;
};

export function selectKeptTurns(input: KeptTurnsInput): KeptTurns {
  const { path, previous, start, firstKeptIndex, entryTokens, maxTurnTokens, budgetTokens } = input;
  // The previous compaction's kept set, as the context plan reads it (the turns it keeps before its kept region).
  const carried = new Set<EntryId>(previous ? planContext(path).keptUserTurns.map((e) => e.id) : []);
  const candidates: Array<{ id: EntryId; tokens: number }> = [];
  const oversized: Array<{ id: EntryId; tokens: number }> = [];
  const end = Math.min(firstKeptIndex, path.length);
  for (let i = 0; i < end; i++) {
    const e = path[i];
    if (e === undefined || (i < start && !carried.has(e.id)) || !isUserTurn(e)) continue;
    const tokens = entryTokens(e);
    if (tokens > maxTurnTokens) oversized.push({ id: e.id, tokens });
    else candidates.push({ id: e.id, tokens });
  }
  let total = candidates.reduce((sum, c) => sum + c.tokens, 0);
  let firstKept = 0;
  while (firstKept < candidates.length && total > budgetTokens) {
    total -= candidates[firstKept]?.tokens ?? 0;
    firstKept++;
  }
  return {
    keptUserTurnIds: candidates.slice(firstKept).map((c) => c.id),
    keptTokens: total,
    evictedUserTurnIds: candidates.slice(0, firstKept).map((c) => c.id),
    oversized,
  };
}
