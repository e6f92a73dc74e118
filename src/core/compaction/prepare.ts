/**
 * Planning a compaction (DESIGN §4): where to cut, what to fold, which user turns stay verbatim,
 * the verbatim tail, the previous summary to update, and the summarizer budgets. The plan is data
 * for `runCompaction` (compact.ts), which makes the summarizer calls.
 *
 * Iterative: the region starts at the previous compaction's kept region (its `firstKeptEntryId`),
 * so nothing it kept verbatim is dropped, and its summary — `<verbatim_tail>` and our own notes
 * removed — is passed to the summarizer as `<previous-summary>` to update.
 *
 * Cheap by design: with an `entryTokens` cache, preparing touches no message text except the
 * previous summary and the tail candidate, so a multi-million-token path is planned in
 * milliseconds. Exact counting (windows, tokensBefore/After) happens in `runCompaction`.
 *
 * Pure: no I/O, no summarizer calls, nothing appended (the state layer appends the entry).
 */

import type { ApiKind, CompactionEntry, CompactionReason, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { isPinEntry, type PinnedPassage, pinnedIds, pinnedPassages } from "../session/pins";
import { isSkippedMessage } from "../session/plan-context";
import { cutAfterEntry, findCutPoint, foldableRegion } from "./cut-point";
import { stripCompactionNotes } from "./digest";
import { type CountTokens, type EntryTokens, entryTokensFrom } from "./entry-text";
import { stripFileOpsTags } from "./file-ops";
import { type KeptTurns, selectKeptTurns } from "./kept-turns";
import {
  clampToTokens,
  type OutputBudgets,
  outputBudgets,
  PREVIOUS_SUMMARY_MAX_WINDOW_FRACTION,
  summaryBodyBudget,
} from "./requests";
import { type CompactionSettings, keepRecentTokensFor, keptUserTurnsBudgetFor } from "./settings";
import { extractTail, lastAssistantText, makeTail, stripTail } from "./verbatim-tail";

export type PrepareOptions = {
  reason: CompactionReason;
  settings: CompactionSettings;
  /** Window of the chat model the context is for (kept-turn budget, keep-recent cap). */
  contextWindow: number;
  /** Window and output limit of the model that summarizes (falls back to the chat model). */
  summarizerWindow: number;
  summarizerMaxOutput?: number;
  /** The summarizer model id, recorded on the entry. Default "unknown". */
  summarizerModel?: string;
  countTokens: CountTokens;
  /** Cached per-entry counts (see `EntryTokens`); default: count `entryContextText` now. */
  entryTokens?: EntryTokens;
  /** For `contextTokens`: the session's system prompt and the target api. */
  systemPrompt: string;
  targetApi: ApiKind;
  /** Custom instructions (manual compaction); they reach every summarizer call. */
  instructions?: string;
  /** "Compact up to here": the kept region starts right after this entry (active path only). */
  upToEntryId?: EntryId;
  /** The current `contextTokens` of the path if the caller has it (the meter's figure); else counted in `runCompaction`. */
  tokensBefore?: number;
};

export type CompactionPlan = {
  readonly reason: CompactionReason;
  readonly instructions: string | null;
  readonly model: string;
  /** The path as prepared (root first); the entry goes after its last entry. */
  readonly path: readonly Entry[];
  /** Start of the folded region, the kept region's first index (`path.length` = fold all). */
  readonly start: number;
  readonly firstKeptIndex: number;
  readonly firstKeptEntryId: EntryId | null;
  /** Folded entries summarized as history (compaction entries left out: the latest is `previous`). */
  readonly history: readonly Entry[];
  /** The start of a turn cut in the middle, summarized separately; [] when the cut is at a turn start. */
  readonly turnPrefix: readonly Entry[];
  readonly turnStartEntryId: EntryId | null;
  readonly previous: CompactionEntry | null;
  /** The previous summary without its tail and notes, cut to fit; null for a first compaction. */
  readonly previousDigest: string | null;
  /** The `<verbatim_tail>` content (escaped, clamped); the previous tail when nothing new has assistant text. */
  readonly tail: string | null;
  readonly kept: KeptTurns;
  /** Pinned messages before the new kept region (kept verbatim, whatever the budget), path order. */
  readonly pinnedEntryIds: readonly EntryId[];
  /** Pinned passages of other messages before the new kept region (kept verbatim the same way), path order. */
  readonly pinnedPassages: readonly PinnedPassage[];
  /** Estimated tokens folded (from `entryTokens`). */
  readonly foldedTokens: number;
  /** Estimated number of summary windows (`runCompaction` computes the exact split). */
  readonly estimatedWindows: number;
  readonly outputBudgets: OutputBudgets;
  readonly summarizerWindow: number;
  readonly systemPrompt: string;
  readonly targetApi: ApiKind;
  readonly countTokens: CountTokens;
  readonly tokensBefore: number | null;
};

export type PrepareResult =
  | { kind: "plan"; plan: CompactionPlan }
  | { kind: "nothing_to_compact"; reason: string }
  | { kind: "already_compacted" };

const hasFoldableContent = (entries: readonly Entry[]): boolean =>
  entries.some((e) => e.type !== "compaction" && !isPinEntry(e) && !(e.type === "message" && isSkippedMessage(e)));

/** The messages pinned on the path that this compaction folds: kept verbatim above its summary (plan-context.ts rule 3). */
function foldedPins(path: readonly Entry[], firstKeptIndex: number): EntryId[] {
  const pins = pinnedIds(path);
  return path.slice(0, firstKeptIndex).flatMap((e) => (e.type === "message" && pins.has(e.id) ? [e.id] : []));
}

/** The passages pinned in messages this compaction folds whose message is not pinned whole. */
function foldedPassages(path: readonly Entry[], firstKeptIndex: number): PinnedPassage[] {
  const pins = pinnedIds(path);
  const folded = new Set(path.slice(0, firstKeptIndex).map((e) => e.id));
  return pinnedPassages(path).filter((p) => folded.has(p.entryId) && !pins.has(p.entryId));
}

export function prepareCompaction(path: readonly Entry[], opts: PrepareOptions): PrepareResult {
  const leaf = path[path.length - 1];
  if (leaf === undefined) return { kind: "nothing_to_compact", reason: "The conversation is empty." };
  if (leaf.type === "compaction") return { kind: "already_compacted" };

  const { settings, countTokens } = opts;
  const entryTokens = opts.entryTokens ?? entryTokensFrom(countTokens);
  const region = foldableRegion(path);
  const { start, previous } = region;

  let cut: { firstKeptIndex: number; turnStartIndex: number | null };
  if (opts.upToEntryId !== undefined) {
    const r = cutAfterEntry(path, start, opts.upToEntryId);
    if (!r.ok) return { kind: "nothing_to_compact", reason: r.reason };
    cut = r.cut;
  } else {
    const keep = keepRecentTokensFor(opts.contextWindow, settings);
    const found = findCutPoint(path, {
      start,
      keepRecentTokens: keep,
      entryTokens,
      pullBackTokens: settings.keptUserTurnMaxTokens,
    });
    if (found === null) {
      return {
        kind: "nothing_to_compact",
        reason: `Nothing to compact: the recent messages fit in the ${keep.toLocaleString("en-US")} tokens kept verbatim.`,
      };
    }
    cut = found;
  }

  const { firstKeptIndex, turnStartIndex } = cut;
  const historyEnd = turnStartIndex ?? firstKeptIndex;
  const notCompaction = (e: Entry): boolean => e.type !== "compaction";
  const history = path.slice(start, historyEnd).filter(notCompaction);
  const turnPrefix = turnStartIndex === null ? [] : path.slice(turnStartIndex, firstKeptIndex).filter(notCompaction);
  if (!hasFoldableContent(history) && !hasFoldableContent(turnPrefix)) {
    return {
      kind: "nothing_to_compact",
      reason: "Nothing to compact: everything before that point is already compacted.",
    };
  }

  const kept = selectKeptTurns({
    path,
    previous,
    start,
    firstKeptIndex,
    entryTokens,
    maxTurnTokens: settings.keptUserTurnMaxTokens,
    budgetTokens: keptUserTurnsBudgetFor(opts.contextWindow, settings),
  });

  const budgets = outputBudgets(settings.reserveTokens, opts.summarizerWindow, opts.summarizerMaxOutput);
  const previousDigest = previous === null ? null : previousDigestOf(previous, opts.summarizerWindow, countTokens);
  const newTail = lastAssistantText([...history, ...turnPrefix]);
  const previousTail = previous === null ? null : extractTail(previous.summary);
  const tail = newTail !== null ? makeTail(newTail) : previousTail?.trim() ? previousTail : null;

  let foldedTokens = 0;
  for (const e of history) foldedTokens += entryTokens(e);
  for (const e of turnPrefix) foldedTokens += entryTokens(e);
  const historyTokens = foldedTokens - turnPrefix.reduce((s, e) => s + entryTokens(e), 0);
  const instructions = opts.instructions?.trim() ? opts.instructions.trim() : null;
  const bodyBudget = summaryBodyBudget({
    summarizerWindow: opts.summarizerWindow,
    outputTokens: budgets.summary,
    previousSummaryTokens: previousDigest === null ? 0 : countTokens(previousDigest),
    instructions,
    countTokens,
  });
  const estimatedWindows = historyTokens === 0 ? 0 : Math.max(1, Math.ceil(historyTokens / Math.max(1, bodyBudget)));

  return {
    kind: "plan",
    plan: {
      reason: opts.reason,
      instructions,
      model: opts.summarizerModel ?? "unknown",
      path,
      start,
      firstKeptIndex,
      firstKeptEntryId: path[firstKeptIndex]?.id ?? null,
      history,
      turnPrefix,
      turnStartEntryId: turnStartIndex === null ? null : (path[turnStartIndex]?.id ?? null),
      previous,
      previousDigest,
      tail,
      kept,
      pinnedEntryIds: foldedPins(path, firstKeptIndex),
      pinnedPassages: foldedPassages(path, firstKeptIndex),
      foldedTokens,
      estimatedWindows,
      outputBudgets: budgets,
      summarizerWindow: opts.summarizerWindow,
      systemPrompt: opts.systemPrompt,
      targetApi: opts.targetApi,
      countTokens,
      tokensBefore: opts.tokensBefore ?? null,
    },
  };
}

/** The previous summary as `<previous-summary>`: tail and notes removed, cut to 40% of the summarizer window. */
function previousDigestOf(previous: CompactionEntry, summarizerWindow: number, countTokens: CountTokens): string {
  const digest = stripFileOpsTags(stripCompactionNotes(stripTail(previous.summary)))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return clampToTokens(digest, Math.floor(summarizerWindow * PREVIOUS_SUMMARY_MAX_WINDOW_FRACTION), countTokens);
}
