/**
 * Planning a branch summary (DESIGN §5): which entries of the abandoned branch go into the
 * summarizer's transcript, and the one request that summarizes them.
 *
 * Selection, newest first: the branch is walked from the old leaf back towards the common
 * ancestor, each entry serialized exactly as the compaction engine serializes folded entries
 * (core/compaction/serialize.ts), until the next entry would overflow the budget; the transcript
 * then lists the picked entries in chronological order. What is left out is the OLDEST part, and
 * the prompt says so. Compaction, branch-summary and handoff entries on the branch are content
 * like any message (`[Compaction summary]`, `[Branch summary]`, `[Handoff document]`) and count
 * against the budget. Once the walk takes in the latest compaction on the branch, the entries it
 * had already folded (those before its kept region in the context plan, core/session/plan-context.ts)
 * are left out as covered by its summary, as `buildContext` does: the transcript is what the model
 * saw on that branch.
 *
 * Budget (tokens of transcript): window − branch reserve (`CompactionSettings.branchReserveTokens`,
 * 16,384 by default), where window is the SUMMARIZER's context window (the request goes there).
 * On small windows the reserve is capped at half the window, and the budget never exceeds what
 * the request leaves after its output budget, system prompt, template and a safety margin. If the
 * newest entry alone is larger than the budget, its beginning is kept (with a marker).
 *
 * Custom instructions REPLACE the default prompt (prompts/branch-summary-custom.md instead of
 * prompts/branch-summary.md); the system prompt, which forbids continuing the branch, stays.
 * Output budget: `BRANCH_SUMMARY_OUTPUT_TOKENS`, capped at the summarizer's output limit and a
 * quarter of its window.
 *
 * Pure: no I/O, no summarizer call; counts come from the injected counter.
 */

import type { CountTokens, EntryTokens } from "../compaction/entry-text";
import { entryTokensFrom } from "../compaction/entry-text";
import { collectFileOps, type FileOps } from "../compaction/file-ops";
import { clampToTokens, MIN_WINDOW_BODY_TOKENS, safetyMarginTokens } from "../compaction/requests";
import { escapeStructuralTags, SEGMENT_SEPARATOR, serializeEntry, wrapConversation } from "../compaction/serialize";
import { DEFAULT_COMPACTION_SETTINGS } from "../compaction/settings";
import {
  BRANCH_SUMMARY,
  BRANCH_SUMMARY_CUSTOM,
  BRANCH_SUMMARY_OMITTED,
  BRANCH_SUMMARY_SYSTEM,
  fillTemplate,
} from "../prompts";
import type { Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { planContext } from "../session/plan-context";

/** Output budget of a branch summary (DESIGN §4.5: "branch summaries 2048"). */
export const BRANCH_SUMMARY_OUTPUT_TOKENS = 2_048;
/** The branch reserve never takes more than this share of the window (an 8k local model still gets a budget). */
const BRANCH_RESERVE_MAX_WINDOW_FRACTION = 0.5;
/** No output budget takes more than this share of the summarizer's window (as in compaction). */
const BRANCH_OUTPUT_MAX_WINDOW_FRACTION = 0.25;
/** Marker after the newest entry when only its beginning fits the budget. */
export const BRANCH_ENTRY_CUT_MARKER = "[... the rest of this message did not fit and was left out]";

export type BranchSummaryOptions = {
  /** Context window of the model that summarizes (the summary model, else the chat model). */
  contextWindow: number;
  /** Tokens kept free in that window; default 16,384 (`CompactionSettings.branchReserveTokens`). */
  branchReserveTokens?: number;
  /** The summarizer's output limit, if known. */
  maxOutput?: number;
  countTokens: CountTokens;
  /** Cached per-entry counts (the `tokenCounts` cache): only used for `branchTokens`, the branch's size. */
  entryTokens?: EntryTokens;
  /** Custom instructions: they replace the default prompt. Blank = none. */
  instructions?: string;
  /** The summarizer model id, recorded on the entry. Default "unknown". */
  model?: string;
  /** The user's version of the default request (Settings → Prompts); absent: the shipped one. */
  prompt?: string;
};

/** One summarizer call: `prompt` as the single user message under `system`. */
type BranchSummaryRequest = { system: string; prompt: string; maxOutputTokens: number };

export type BranchSummaryPlan = {
  /** The old leaf: the entry's `fromId`. */
  readonly fromId: EntryId;
  readonly request: BranchSummaryRequest;
  readonly instructions: string | null;
  readonly model: string;
  /** Entries of the branch in the transcript. */
  readonly includedEntries: number;
  /** The oldest entries left out because the budget was full. */
  readonly omittedEntries: number;
  /** Entries left out because a compaction on the branch had already summarized them. */
  readonly coveredEntries: number;
  /** Tokens of the transcript sent (the `<conversation>` body). */
  readonly transcriptTokens: number;
  readonly budgetTokens: number;
  /** The whole branch's size as the context counts it (`entryTokens`), for the card. */
  readonly branchTokens: number;
  /** Files the branch read and changed (compaction/file-ops.ts), appended to the summary. */
  readonly fileOps: FileOps;
};

export type BranchSummaryPrepareResult =
  | { kind: "plan"; plan: BranchSummaryPlan }
  /** The branch is empty or holds nothing the model saw (e.g. only failed, empty replies). */
  | { kind: "nothing_to_summarize"; reason: string }
  /** The summarizer's window leaves no useful room for the transcript. */
  | { kind: "too_small"; reason: string };

/** Output budget of the summary call. */
export function branchOutputBudget(contextWindow: number, maxOutput?: number): number {
  return Math.max(
    1,
    Math.floor(
      Math.min(
        BRANCH_SUMMARY_OUTPUT_TOKENS,
        maxOutput ?? Number.POSITIVE_INFINITY,
        contextWindow * BRANCH_OUTPUT_MAX_WINDOW_FRACTION,
      ),
    ),
  );
}

function normalizeInstructions(instructions: string | undefined): string | null {
  const t = instructions?.trim() ?? "";
  return t === "" ? null : t;
}

/** The prompt: the default one, or the custom frame carrying the user's instructions instead. */
function branchSummaryPrompt(p: {
  body: string;
  omitted: number;
  instructions: string | null;
  prompt?: string;
}): string {
  const vars = {
    conversation: wrapConversation(p.body),
    omittedNote: p.omitted > 0 ? fillTemplate(BRANCH_SUMMARY_OMITTED, { omitted: String(p.omitted) }) : "",
  };
  return p.instructions === null
    ? fillTemplate(p.prompt ?? BRANCH_SUMMARY, vars).trim()
    : fillTemplate(BRANCH_SUMMARY_CUSTOM, { ...vars, instructions: escapeStructuralTags(p.instructions) }).trim();
}

/** The largest omitted count the budget reserves room for in the note. */
const MAX_OMITTED_NOTE = 9_999_999;

/**
 * Tokens of transcript one request can carry: window − reserve (reserve capped at half the
 * window), and at most what the window leaves after output, system prompt, template and margin.
 */
export function branchInputBudget(opts: {
  contextWindow: number;
  branchReserveTokens: number;
  outputTokens: number;
  instructions: string | null;
  countTokens: CountTokens;
  prompt?: string;
}): number {
  const { contextWindow, outputTokens, instructions, countTokens } = opts;
  const reserve = Math.min(Math.max(0, opts.branchReserveTokens), contextWindow * BRANCH_RESERVE_MAX_WINDOW_FRACTION);
  const template = branchSummaryPrompt({ body: "", omitted: MAX_OMITTED_NOTE, instructions, prompt: opts.prompt });
  const fixed = countTokens(BRANCH_SUMMARY_SYSTEM) + countTokens(template);
  const room = contextWindow - outputTokens - fixed - safetyMarginTokens(contextWindow);
  return Math.floor(Math.min(contextWindow - reserve, room));
}

export function prepareBranchSummary(
  abandoned: readonly Entry[],
  opts: BranchSummaryOptions,
): BranchSummaryPrepareResult {
  const leaf = abandoned[abandoned.length - 1];
  if (leaf === undefined) return { kind: "nothing_to_summarize", reason: "Nothing is left behind by this switch." };
  const { countTokens } = opts;
  const instructions = normalizeInstructions(opts.instructions);
  const outputTokens = branchOutputBudget(opts.contextWindow, opts.maxOutput);
  const budget = branchInputBudget({
    contextWindow: opts.contextWindow,
    branchReserveTokens: opts.branchReserveTokens ?? DEFAULT_COMPACTION_SETTINGS.branchReserveTokens,
    outputTokens,
    instructions,
    countTokens,
    prompt: opts.prompt,
  });

  // What the latest compaction on the branch left out of the context (the context plan). The
  // branch is the lower part of the old path: a first kept entry not on it lies above the common
  // ancestor, and nothing of the branch was folded.
  const plan = planContext(abandoned, { segment: true });
  const coveredUpTo = Math.min(plan.keptStart, plan.compactionIndex);

  // Newest first, until the budget is full or the latest compaction covers the rest.
  const picked: string[] = [];
  let used = 0;
  let floor = 0;
  let stoppedAt = -1; // index of the newest entry NOT taken for the budget; -1 = the walk reached `floor`
  const separator = countTokens(SEGMENT_SEPARATOR);
  for (let i = abandoned.length - 1; i >= floor; i--) {
    const entry = abandoned[i]!;
    const text = serializeEntry(entry);
    if (text === "") continue;
    if (budget < MIN_WINDOW_BODY_TOKENS) {
      return {
        kind: "too_small",
        reason: `The summarizer's context window (${opts.contextWindow} tokens) is too small to summarize the branch in.`,
      };
    }
    const own = countTokens(text);
    const cost = own + (picked.length > 0 ? separator : 0);
    if (used + cost > budget) {
      if (picked.length === 0) {
        // The newest entry alone is too large: its beginning stands for it.
        const room = budget - countTokens(`\n${BRANCH_ENTRY_CUT_MARKER}`);
        const head = `${clampToTokens(text, room, countTokens)}\n${BRANCH_ENTRY_CUT_MARKER}`;
        picked.push(head);
        used = countTokens(head);
        stoppedAt = i - 1;
      } else {
        stoppedAt = i;
      }
      break;
    }
    picked.push(text);
    used += cost;
    if (i === plan.compactionIndex) floor = coveredUpTo;
  }

  if (picked.length === 0) {
    return { kind: "nothing_to_summarize", reason: "The branch left behind has no messages to summarize." };
  }

  const shows = (e: Entry): boolean => serializeEntry(e) !== "";
  let omittedEntries = 0;
  for (let i = floor; i <= stoppedAt; i++) if (shows(abandoned[i]!)) omittedEntries++;
  let coveredEntries = 0;
  for (let i = 0; i < floor; i++) if (shows(abandoned[i]!)) coveredEntries++;

  const body = picked.reverse().join(SEGMENT_SEPARATOR);
  const entryTokens = opts.entryTokens ?? entryTokensFrom(countTokens);
  let branchTokens = 0;
  for (const e of abandoned) branchTokens += entryTokens(e);

  return {
    kind: "plan",
    plan: {
      fromId: leaf.id,
      request: {
        system: BRANCH_SUMMARY_SYSTEM,
        prompt: branchSummaryPrompt({ body, omitted: omittedEntries, instructions, prompt: opts.prompt }),
        maxOutputTokens: outputTokens,
      },
      instructions,
      model: opts.model ?? "unknown",
      includedEntries: picked.length,
      omittedEntries,
      coveredEntries,
      transcriptTokens: used,
      budgetTokens: budget,
      branchTokens,
      fileOps: collectFileOps(abandoned),
    },
  };
}
