/**
 * Where a compaction cuts the path (DESIGN §4.1, §4.2, §6 "compact up to here").
 *
 * The foldable region is the kept region of the context plan (core/session/plan-context.ts), the
 * one `buildContext` sends: it starts where the latest compaction's kept region starts, or at the
 * root without a compaction. Nothing
 * before the region is visible to the model any more, and nothing the previous compaction kept
 * verbatim is skipped: a later compaction folds it with the rest (iterative compaction).
 *
 * The algorithm (`findCutPoint`):
 * 1. Walk back from the leaf, adding up each entry's tokens (`entryTokens`; compaction entries
 *    count 0, they never appear in the kept region), until the sum reaches `keepRecentTokens`. Call
 *    the entry where it does `i`. If the whole region stays below the budget: nothing to compact.
 * 2. Legal cut points are entries that may START the kept region: user and assistant messages
 *    (not skipped by `buildContext`) and branch-summary / handoff entries, but never a tool result
 *    (it stays with its call), never a compaction entry, and never an index that lies between a
 *    tool call and its result (a call folded while its result is kept would orphan the result).
 * 3. Cut at the first legal point at or after `i`: the kept region then holds at most
 *    `keepRecentTokens` (the budget is a ceiling, so a compaction always makes room). If there is
 *    none (the newest entries are one call whose results alone exceed the budget), fold
 *    everything (`firstKeptIndex === path.length`). A cut at the region start folds nothing:
 *    nothing to compact.
 * 4. If the entry at the cut is not a turn start (a user turn, branch summary or handoff), the cut
 *    falls inside a turn: the nearest turn start before it, inside the region, is reported as
 *    `turnStartIndex`, and the turn's prefix (from there to the cut) is summarized separately and
 *    merged ("split turn"). If the turn started before the region, there is no split: the whole
 *    folded part is history. One exception: when the prefix would be only the turn's opening
 *    message (the cut is the reply to a user message), the cut moves back to that message if it
 *    is small (`pullBackTokens`): a plain chat then cuts between turns, not inside every one.
 *
 * "Compact up to here" (`cutAfterEntry`) ignores `keepRecentTokens`: the kept region starts right
 * after the chosen entry; if that entry is a tool result or sits inside a call/result pair, the cut
 * moves forward to the next legal point (the results are folded with their call). Choosing the
 * leaf folds everything (`firstKeptIndex === path.length`, stored as `firstKeptEntryId: null`).
 *
 * Pure: no I/O, no token counting of its own (counts come from `entryTokens`).
 */

import type { CompactionEntry, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { isSkippedMessage, planContext } from "../session/plan-context";
import { type EntryTokens, isCutCandidate, isTurnStart } from "./entry-text";

export type FoldableRegion = {
  /** Index of the first entry that may be folded (the model currently sees it verbatim). */
  start: number;
  /** The latest compaction on the path, whose summary the next one updates; null if none. */
  previous: CompactionEntry | null;
  /** Index of `previous` in the path; -1 if none. */
  previousIndex: number;
};

export type CutPoint = {
  /** Index of the first kept entry; `path.length` when everything is folded. */
  firstKeptIndex: number;
  /** Start of the turn the cut falls into, when it is a split turn (≥ region start); null otherwise. */
  turnStartIndex: number | null;
};

/** The region a new compaction may fold (see the header): the context plan's kept region. */
export function foldableRegion(path: readonly Entry[]): FoldableRegion {
  const plan = planContext(path);
  return { start: plan.keptStart, previous: plan.compaction, previousIndex: plan.compactionIndex };
}

/**
 * For each index `start..path.length`, whether cutting there separates a tool call from its result
 * (1) or not (0). A result is paired with the latest call before it that has the same id.
 */
function pairBlocked(path: readonly Entry[], start: number): Uint8Array {
  const size = path.length - start + 1;
  const diff = new Int32Array(size + 1);
  const callAt = new Map<string, number>();
  for (let i = start; i < path.length; i++) {
    const e = path[i];
    if (e?.type !== "message") continue;
    for (const b of e.content) {
      if (b.type === "tool_call") callAt.set(b.id, i);
      else if (b.type === "tool_result") {
        const c = callAt.get(b.callId);
        if (c === undefined || c >= i) continue;
        // Cuts at c+1 … i would fold the call and keep the result.
        diff[c + 1 - start] = (diff[c + 1 - start] ?? 0) + 1;
        diff[i + 1 - start] = (diff[i + 1 - start] ?? 0) - 1;
      }
    }
  }
  const blocked = new Uint8Array(size);
  let open = 0;
  for (let k = 0; k < size; k++) {
    open += diff[k] ?? 0;
    blocked[k] = open > 0 ? 1 : 0;
  }
  return blocked;
}

/** The legal-cut test for a region: `legal(i)` for `start ≤ i < path.length`. */
export function legalCuts(path: readonly Entry[], start: number): (index: number) => boolean {
  const blocked = pairBlocked(path, start);
  return (i) => {
    const e = path[i];
    return e !== undefined && i >= start && blocked[i - start] === 0 && isCutCandidate(e);
  };
}

function withSplitTurn(
  path: readonly Entry[],
  start: number,
  firstKeptIndex: number,
  pullBack?: { entryTokens: EntryTokens; maxTokens: number },
): CutPoint {
  const at = path[firstKeptIndex];
  if (at === undefined || isTurnStart(at)) return { firstKeptIndex, turnStartIndex: null };
  for (let t = firstKeptIndex - 1; t >= start; t--) {
    const e = path[t];
    if (e === undefined || !isTurnStart(e)) continue;
    // A "prefix" that is only the turn's opening message is no split: keep the message instead.
    const onlyOpening = path.slice(t + 1, firstKeptIndex).every((x) => !contributes(x));
    if (pullBack && onlyOpening && t > start && pullBack.entryTokens(e) <= pullBack.maxTokens) {
      return { firstKeptIndex: t, turnStartIndex: null };
    }
    return { firstKeptIndex, turnStartIndex: t };
  }
  return { firstKeptIndex, turnStartIndex: null };
}

/** Whether an entry puts anything in the context (compaction entries and skipped messages do not). */
const contributes = (e: Entry): boolean => e.type !== "compaction" && !(e.type === "message" && isSkippedMessage(e));

export type FindCutPointOptions = {
  /** Region start (`foldableRegion(path).start`). */
  start: number;
  keepRecentTokens: number;
  entryTokens: EntryTokens;
  /**
   * When the cut lands right after a turn's opening message (a user message answered by the entry
   * at the cut), the cut moves back to that message if it is at most this many tokens: the kept
   * region then starts at a turn boundary instead of splitting a turn whose prefix is one message.
   * Default `DEFAULT_PULL_BACK_TOKENS`.
   */
  pullBackTokens?: number;
};

/** Default for `pullBackTokens`: the default `keptUserTurnMaxTokens`. */
const DEFAULT_PULL_BACK_TOKENS = 1_500;

/** The automatic cut (see the header); null when there is nothing to fold. */
export function findCutPoint(path: readonly Entry[], opts: FindCutPointOptions): CutPoint | null {
  const { start, keepRecentTokens, entryTokens } = opts;
  const end = path.length;
  if (start >= end) return null;
  if (keepRecentTokens <= 0) return { firstKeptIndex: end, turnStartIndex: null };

  let reached = -1;
  let acc = 0;
  for (let i = end - 1; i >= start; i--) {
    const e = path[i];
    if (e === undefined || e.type === "compaction") continue;
    acc += entryTokens(e);
    if (acc >= keepRecentTokens) {
      reached = i;
      break;
    }
  }
  if (reached < 0) return null;

  const legal = legalCuts(path, start);
  let cut = -1;
  for (let i = reached; i < end; i++) {
    if (legal(i)) {
      cut = i;
      break;
    }
  }
  // No legal point at or after the budget line (the newest entries are a call and its results):
  // fold everything. Keeping more than the budget would make the compaction useless — e.g. a
  // 25k-token tool result kept with its call, only the question before it folded.
  if (cut < 0) return { firstKeptIndex: end, turnStartIndex: null };
  if (cut <= start) return null;
  return withSplitTurn(path, start, cut, {
    entryTokens,
    maxTokens: opts.pullBackTokens ?? DEFAULT_PULL_BACK_TOKENS,
  });
}

export type CutAfterResult = { ok: true; cut: CutPoint } | { ok: false; reason: string };

/** "Compact up to here": the kept region starts after `entryId` (see the header). */
export function cutAfterEntry(path: readonly Entry[], start: number, entryId: EntryId): CutAfterResult {
  const at = path.findIndex((e) => e.id === entryId);
  if (at < 0) return { ok: false, reason: "That message is not on the active path." };
  if (at < start) return { ok: false, reason: "Everything up to that message is already compacted." };
  const legal = legalCuts(path, start);
  let cut = at + 1;
  while (cut < path.length && !legal(cut)) cut++;
  return { ok: true, cut: withSplitTurn(path, start, cut) };
}
