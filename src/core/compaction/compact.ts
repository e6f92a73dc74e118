/**
 * Running a compaction plan (DESIGN §4): the summarizer calls, the digest, the tail, and the entry
 * the caller appends — or a failure. Never a partial result: any summarizer error makes the whole
 * outcome `failed`, an abort makes it `cancelled`, and neither carries an entry.
 *
 * Calls, in order (each with the user's custom instructions, if any):
 * 1. "summary", once per window of the folded history: the first window updates the previous
 *    summary (or writes a first one), each later window updates the running summary. No call
 *    when the history is empty (a split turn starting the region): the previous summary stands.
 * 2. "split-turn-prefix", when the cut fell inside a turn: the turn's folded beginning. If that
 *    beginning alone does not fit one call, it is folded with the history instead.
 * 3. "short-summary": the card's one-liner. Its failure is not the compaction's: the digest's
 *    first sentence stands in (still cancelled on abort).
 *
 * An output that is empty once echoes are stripped counts as a failed call. A summarizer that
 * overshoots its output budget is cut back to it, so later windows still fit the window.
 *
 * Pure apart from the injected `summarize` / `onProgress` / `now`: no I/O, nothing appended.
 */
import type { PromptTexts } from "../prompt-overrides";
import { COMPACTION_SYSTEM } from "../prompts";
import { contextTokens } from "../session/context-tokens";
import type { CompactionEntry, Entry, MessageError } from "../session/entries";
import { asEntryId, asSessionId, type EntryId } from "../session/ids";
import { errorText, isAbortedError } from "../session/message-error";
import type { PinnedPassage } from "../session/pins";
import { planContext } from "../session/plan-context";
import { assembleDigest, clampLine, cleanShortSummary, cleanSummarizerOutput, firstSentence } from "./digest";
import { collectFileOps, withFileOpsTags } from "./file-ops";
import type { CompactionPlan } from "./prepare";
import {
  clampToTokens,
  MIN_WINDOW_BODY_TOKENS,
  type SummarizePurpose,
  type SummarizeRequest,
  shortSummaryInputBudget,
  shortSummaryPrompt,
  splitTurnBodyBudget,
  splitTurnPrompt,
  summaryBodyBudget,
  summaryPrompt,
} from "./requests";
import { SEGMENT_SEPARATOR, serializeSegments } from "./serialize";
import { spliceTail } from "./verbatim-tail";
import { packWindows } from "./windows";

/**
 * Makes one summarizer call and resolves with the model's whole text. May throw (any provider
 * failure, best as a MessageError: its message is the outcome's `error`); must reject promptly once
 * `signal` aborts (a MessageError of kind `aborted`, thrown at any time, also reads as cancelled). `onText`, when given, receives the text so
 * far as it streams (for progress only: the resolved text is what counts).
 */
export type SummarizeFn = (
  req: SummarizeRequest,
  signal: AbortSignal,
  onText?: (textSoFar: string) => void,
) => Promise<string>;

export type CompactionProgress =
  | { phase: "preparing" }
  /** `window` is 1-based; `text` is the summary streaming in for this window ("" at its start). */
  | { phase: "summarizing"; window: number; windows: number; text: string }
  | { phase: "split-turn-prefix"; text: string }
  | { phase: "short-summary" }
  /** The worker's provider-native step (worker/native-step.ts), after Grove's summary is made. */
  | { phase: "native"; method: "openai" | "anthropic" };

export type RunDeps = {
  summarize: SummarizeFn;
  signal: AbortSignal;
  /** Progress for the UI. Must not throw (an exception is swallowed). */
  onProgress?: (p: CompactionProgress) => void;
  /** Clock for `details.durationMs`; default `Date.now`. */
  now?: () => number;
  /** The user's prompt overrides (Settings → Prompts); absent: the shipped prompts. */
  prompts?: PromptTexts;
  /** Which version of each prompt is in force ("default", "custom v2"), recorded in `details`. */
  promptVersions?: Readonly<Record<string, string>>;
};

/** What the engine records in `CompactionEntry.details` (for the card and for debugging). */
export type CompactionDetails = {
  readonly kind: "grove-compaction";
  readonly version: 1;
  /** Entries folded by this compaction (compaction entries not counted). */
  readonly foldedEntries: number;
  /** Summary calls made for the history (0 when only a split-turn prefix was folded). */
  readonly windows: number;
  /** Set when the cut fell inside a turn: the folded user message that started it. */
  readonly splitTurnStartId: EntryId | null;
  readonly keptUserTurnTokens: number;
  /** Dropped from the kept set for the budget, oldest first: the card says so. */
  readonly evictedUserTurnIds: EntryId[];
  /** User messages too long to keep verbatim, summarized instead: the card says so. */
  readonly foldedUserTurns: Array<{ id: EntryId; tokens: number }>;
  /** Messages pinned ("Keep word for word") before the kept region when it was made, sent verbatim above the summary. */
  readonly pinnedEntryIds?: readonly EntryId[];
  /** Passages pinned in other messages before the kept region when it was made, sent verbatim the same way. */
  readonly pinnedPassages?: readonly PinnedPassage[];
  /** True when `shortSummary` is the digest's first sentence (the short call failed or returned junk). */
  readonly shortSummaryFallback: boolean;
  readonly durationMs: number;
  /** Cumulative file operations (file-ops.ts), also appended to `summary` as tags. */
  readonly readFiles?: readonly string[];
  readonly modifiedFiles?: readonly string[];
  /** The version of each summarizer prompt that wrote it ("default", "custom v2"): Settings → Prompts. */
  readonly promptVersions?: Readonly<Record<string, string>>;
};

/** The entry the caller appends at the leaf (it adds id, sessionId, parentId, createdAt). */
export type NewCompactionEntry = Omit<CompactionEntry, "id" | "sessionId" | "parentId" | "createdAt">;

export type CompactionOutcome =
  | { kind: "done"; entry: NewCompactionEntry; tokensBefore: number; tokensAfter: number }
  | { kind: "failed"; error: string }
  | { kind: "cancelled" };

class SummarizerOutputError extends Error {
  override name = "SummarizerOutputError";
}

/** What a step throws once `signal` has aborted: the one error shape, kind `aborted`. */
const cancelled = (): MessageError => ({ kind: "aborted", message: "Compaction cancelled" });

export async function runCompaction(plan: CompactionPlan, deps: RunDeps): Promise<CompactionOutcome> {
  const { summarize, signal } = deps;
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const count = plan.countTokens;
  const progress = (p: CompactionProgress): void => {
    try {
      deps.onProgress?.(p);
    } catch {
      // Progress is advisory: a broken listener must not fail the compaction.
    }
  };
  const checkAbort = (): void => {
    if (signal.aborted) throw cancelled();
  };
  const call = async (
    purpose: SummarizePurpose,
    prompt: string,
    maxOutputTokens: number,
    onText?: (t: string) => void,
  ): Promise<string> => {
    checkAbort();
    const text = await summarize({ system: COMPACTION_SYSTEM, prompt, maxOutputTokens, purpose }, signal, onText);
    checkAbort();
    return typeof text === "string" ? text : "";
  };

  try {
    checkAbort();
    progress({ phase: "preparing" });
    const buildOpts = { systemPrompt: plan.systemPrompt, targetApi: plan.targetApi };
    const tokensBefore = plan.tokensBefore ?? contextTokens(plan.path, buildOpts, count);
    const oversizedUserTurnIds = new Set(plan.kept.oversized.map((o) => o.id));
    const serializeOpts = { oversizedUserTurnIds };
    const budgets = plan.outputBudgets;

    // The split-turn prefix, if it fits one call; otherwise it joins the history.
    let history: readonly Entry[] = plan.history;
    let prefixBody: string | null = null;
    if (plan.turnPrefix.length > 0) {
      const body = serializeSegments(plan.turnPrefix, serializeOpts)
        .map((s) => s.text)
        .join(SEGMENT_SEPARATOR);
      const room = splitTurnBodyBudget({
        summarizerWindow: plan.summarizerWindow,
        outputTokens: budgets.splitTurn,
        instructions: plan.instructions,
        countTokens: count,
      });
      if (body !== "" && count(body) <= room) prefixBody = body;
      else history = [...history, ...plan.turnPrefix];
    }

    // The history, in windows.
    const previousDigest = plan.previousDigest;
    const bodyBudget = summaryBodyBudget({
      summarizerWindow: plan.summarizerWindow,
      outputTokens: budgets.summary,
      previousSummaryTokens: previousDigest === null ? 0 : count(previousDigest),
      instructions: plan.instructions,
      countTokens: count,
    });
    const segments = serializeSegments(history, serializeOpts);
    if (segments.length > 0 && bodyBudget < MIN_WINDOW_BODY_TOKENS) {
      return {
        kind: "failed",
        error: `The summarizer's context window (${plan.summarizerWindow} tokens) is too small to summarize in.`,
      };
    }
    const windows = packWindows(segments, bodyBudget, count);

    let running: string | null = previousDigest;
    for (const [i, body] of windows.entries()) {
      const window = i + 1;
      progress({ phase: "summarizing", window, windows: windows.length, text: "" });
      const prompt = summaryPrompt(
        {
          previousSummary: running,
          body,
          window,
          windows: windows.length,
          instructions: plan.instructions,
        },
        deps.prompts,
      );
      const raw = await call("summary", prompt, budgets.summary, (text) =>
        progress({ phase: "summarizing", window, windows: windows.length, text }),
      );
      const cleaned = cleanSummarizerOutput(raw);
      if (cleaned === "") throw new SummarizerOutputError("The summarizer returned an empty summary.");
      running = clampToTokens(cleaned, budgets.summary, count);
    }

    let prefixSummary: string | null = null;
    if (prefixBody !== null) {
      progress({ phase: "split-turn-prefix", text: "" });
      const raw = await call(
        "split-turn-prefix",
        splitTurnPrompt(prefixBody, plan.instructions, deps.prompts),
        budgets.splitTurn,
        (text) => progress({ phase: "split-turn-prefix", text }),
      );
      prefixSummary = cleanSummarizerOutput(raw);
      if (prefixSummary === "") throw new SummarizerOutputError("The summarizer returned an empty turn summary.");
      prefixSummary = clampToTokens(prefixSummary, budgets.splitTurn, count);
    }

    const foldedTokens = plan.kept.oversized.reduce((s, o) => s + o.tokens, 0);
    const digest = assembleDigest({
      summary: running ?? "",
      splitTurn: prefixSummary,
      folded: { count: plan.kept.oversized.length, tokens: foldedTokens },
    });
    // The files the folded part read and changed, carried on from the previous compaction (file-ops.ts).
    const previous = planContext(plan.path).compaction;
    const fileOps = collectFileOps([...(previous ? [previous] : []), ...plan.history, ...plan.turnPrefix]);
    const summary = spliceTail(withFileOpsTags(digest, fileOps), plan.tail);

    // The one-liner: its own failure falls back to the digest's first sentence.
    progress({ phase: "short-summary" });
    let shortSummary: string | null = null;
    try {
      const room = shortSummaryInputBudget({
        summarizerWindow: plan.summarizerWindow,
        outputTokens: budgets.short,
        instructions: plan.instructions,
        countTokens: count,
      });
      const raw = await call(
        "short-summary",
        shortSummaryPrompt(clampToTokens(digest, room, count), plan.instructions, deps.prompts),
        budgets.short,
      );
      shortSummary = cleanShortSummary(raw);
    } catch (e) {
      if (signal.aborted || isAbortedError(e)) throw e;
    }
    const shortSummaryFallback = shortSummary === null;
    if (shortSummary === null) {
      shortSummary =
        firstSentence(running ?? "") ??
        firstSentence(prefixSummary ?? "") ??
        clampLine(`Compacted ${plan.history.length + plan.turnPrefix.length} earlier entries`);
    }

    const details: CompactionDetails = {
      kind: "grove-compaction",
      version: 1,
      foldedEntries: plan.history.length + plan.turnPrefix.length,
      windows: windows.length,
      splitTurnStartId: prefixBody !== null ? plan.turnStartEntryId : null,
      keptUserTurnTokens: plan.kept.keptTokens,
      evictedUserTurnIds: plan.kept.evictedUserTurnIds,
      foldedUserTurns: plan.kept.oversized,
      ...(plan.pinnedEntryIds.length > 0 ? { pinnedEntryIds: plan.pinnedEntryIds } : {}),
      ...(plan.pinnedPassages.length > 0 ? { pinnedPassages: plan.pinnedPassages } : {}),
      shortSummaryFallback,
      durationMs: Math.max(0, now() - startedAt),
      ...(fileOps.readFiles.length + fileOps.modifiedFiles.length > 0 ? fileOps : {}),
      ...(deps.promptVersions ? { promptVersions: deps.promptVersions } : {}),
    };
    const entry: NewCompactionEntry = {
      type: "compaction",
      summary,
      shortSummary,
      firstKeptEntryId: plan.firstKeptEntryId,
      keptUserTurnIds: plan.kept.keptUserTurnIds,
      tokensBefore,
      tokensAfter: 0,
      reason: plan.reason,
      ...(plan.instructions !== null ? { instructions: plan.instructions } : {}),
      model: plan.model,
      details,
      ...(deps.prompts?.framing !== undefined ? { framing: deps.prompts.framing } : {}),
    };
    const tokensAfter = tokensAfterAppending(plan, entry);
    checkAbort();
    return { kind: "done", entry: { ...entry, tokensAfter }, tokensBefore, tokensAfter };
  } catch (e) {
    if (signal.aborted || isAbortedError(e)) return { kind: "cancelled" };
    return { kind: "failed", error: errorText(e) };
  }
}

/** `contextTokens` of the path as it will be once `entry` is appended at its leaf: the meter's next figure. */
function tokensAfterAppending(plan: CompactionPlan, entry: NewCompactionEntry): number {
  const leaf = plan.path[plan.path.length - 1];
  const virtual: CompactionEntry = {
    ...entry,
    id: asEntryId("virtual-compaction"),
    sessionId: leaf?.sessionId ?? asSessionId(""),
    parentId: leaf?.id ?? null,
    createdAt: leaf?.createdAt ?? 0,
  };
  return contextTokens(
    [...plan.path, virtual],
    { systemPrompt: plan.systemPrompt, targetApi: plan.targetApi },
    plan.countTokens,
  );
}
