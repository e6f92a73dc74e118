/**
 * The summarizer requests (DESIGN §4.5): prompts filled from `prompts/compaction-*.md`, output
 * budgets, and the token budget left for conversation text in each call.
 *
 * Budgets:
 * - output: 0.8 × reserveTokens for the summary, 0.5 × reserveTokens for a split-turn prefix,
 *   `SHORT_SUMMARY_OUTPUT_TOKENS` for the one-liner; each capped at the summarizer's own output
 *   limit and at a quarter of its window (a 16k reserve would not leave a 14k window any room).
 * - input: a call must fit `summarizerWindow` with its output budget. The room for conversation
 *   text is the window minus the output budget, the system prompt, the template with the user's
 *   instructions and the longest "part i of n" note, a previous summary (at least as large as one
 *   output budget, since later windows carry the running summary), and a safety margin.
 *
 * Custom instructions go into every prompt (summary windows, split-turn prefix, short summary).
 * Pure: no I/O; counts come from the injected counter.
 */
import type { PromptTexts } from "../prompt-overrides";
import {
  COMPACTION_FIRST,
  COMPACTION_INSTRUCTIONS,
  COMPACTION_SHORT,
  COMPACTION_SPLIT_TURN,
  COMPACTION_SYSTEM,
  COMPACTION_UPDATE,
  COMPACTION_WINDOW_NOTE,
  fillTemplate,
} from "../prompts";
import type { CountTokens } from "./entry-text";
import { cutChars, escapeStructuralTags, wrapConversation } from "./serialize";

export const SUMMARY_OUTPUT_RESERVE_FRACTION = 0.8;
const SPLIT_TURN_OUTPUT_RESERVE_FRACTION = 0.5;
/** Output budget of the one-line short summary (≤ 120 characters is ~40 tokens; headroom for odd tokenizers). */
const SHORT_SUMMARY_OUTPUT_TOKENS = 128;
/** No output budget takes more than this share of the summarizer's window. */
const SUMMARIZER_OUTPUT_MAX_WINDOW_FRACTION = 0.25;
/** A previous summary passed to the summarizer is cut to this share of its window at most. */
export const PREVIOUS_SUMMARY_MAX_WINDOW_FRACTION = 0.4;
/** Below this many tokens of room for conversation text per call, summarizing is pointless: fail. */
export const MIN_WINDOW_BODY_TOKENS = 256;
/** Kept free in every request for tokenizer disagreement: 2% of the window, at least 64 tokens. */
export function safetyMarginTokens(summarizerWindow: number): number {
  return Math.max(64, Math.ceil(summarizerWindow * 0.02));
}

export type SummarizePurpose = "summary" | "split-turn-prefix" | "short-summary";

/** One summarizer call. The worker sends `system` + one user message `prompt`, at most `maxOutputTokens` out. */
export type SummarizeRequest = {
  system: string;
  prompt: string;
  maxOutputTokens: number;
  purpose: SummarizePurpose;
};

export type OutputBudgets = { summary: number; splitTurn: number; short: number };

export function outputBudgets(reserveTokens: number, summarizerWindow: number, maxOutput?: number): OutputBudgets {
  const cap = (n: number): number =>
    Math.max(
      1,
      Math.floor(
        Math.min(n, maxOutput ?? Number.POSITIVE_INFINITY, summarizerWindow * SUMMARIZER_OUTPUT_MAX_WINDOW_FRACTION),
      ),
    );
  return {
    summary: cap(reserveTokens * SUMMARY_OUTPUT_RESERVE_FRACTION),
    splitTurn: cap(reserveTokens * SPLIT_TURN_OUTPUT_RESERVE_FRACTION),
    short: cap(SHORT_SUMMARY_OUTPUT_TOKENS),
  };
}

/** The instructions block for the prompts ("" without instructions). */
export function instructionsBlock(instructions: string | null): string {
  const t = instructions?.trim() ?? "";
  return t === "" ? "" : fillTemplate(COMPACTION_INSTRUCTIONS, { instructions: escapeStructuralTags(t) });
}

export type SummaryPromptInput = {
  /** The summary so far (previous compaction's, or the running one); null for a first summary. */
  previousSummary: string | null;
  /** Transcript text of this window, not wrapped. */
  body: string;
  window: number;
  windows: number;
  instructions: string | null;
};

/** `prompts`: the user's overrides (Settings → Prompts, prompt-overrides.ts); absent: the shipped prompts. */
export function summaryPrompt(p: SummaryPromptInput, prompts?: PromptTexts): string {
  const vars = {
    conversation: wrapConversation(p.body),
    windowNote:
      p.windows > 1
        ? fillTemplate(COMPACTION_WINDOW_NOTE, { window: String(p.window), windows: String(p.windows) })
        : "",
    instructions: instructionsBlock(p.instructions),
  };
  return p.previousSummary === null
    ? fillTemplate(prompts?.compaction ?? COMPACTION_FIRST, vars).trim()
    : fillTemplate(prompts?.update ?? COMPACTION_UPDATE, {
        ...vars,
        previousSummary: escapeStructuralTags(p.previousSummary),
      }).trim();
}

export function splitTurnPrompt(body: string, instructions: string | null, prompts?: PromptTexts): string {
  return fillTemplate(prompts?.["split-turn"] ?? COMPACTION_SPLIT_TURN, {
    conversation: wrapConversation(body),
    instructions: instructionsBlock(instructions),
  }).trim();
}

export function shortSummaryPrompt(summary: string, instructions: string | null, prompts?: PromptTexts): string {
  return fillTemplate(prompts?.["short-summary"] ?? COMPACTION_SHORT, {
    summary: escapeStructuralTags(summary),
    instructions: instructionsBlock(instructions),
  }).trim();
}

/** The largest window count we budget the "part i of n" note for. */
const MAX_WINDOWS_NOTE = 99_999;

/**
 * Tokens of conversation text one summary call can carry, given the previous summary's size (the
 * running summary of later windows is at most one output budget). May be ≤ 0: the window is too small.
 */
export function summaryBodyBudget(opts: {
  summarizerWindow: number;
  outputTokens: number;
  previousSummaryTokens: number;
  instructions: string | null;
  countTokens: CountTokens;
}): number {
  const { summarizerWindow, outputTokens, previousSummaryTokens, instructions, countTokens } = opts;
  const template = summaryPrompt({
    previousSummary: "",
    body: "",
    window: MAX_WINDOWS_NOTE,
    windows: MAX_WINDOWS_NOTE,
    instructions,
  });
  const fixed = countTokens(COMPACTION_SYSTEM) + countTokens(template);
  const previous = Math.max(previousSummaryTokens, outputTokens);
  return summarizerWindow - outputTokens - fixed - previous - safetyMarginTokens(summarizerWindow);
}

/** Tokens of conversation text the split-turn call can carry. */
export function splitTurnBodyBudget(opts: {
  summarizerWindow: number;
  outputTokens: number;
  instructions: string | null;
  countTokens: CountTokens;
}): number {
  const { summarizerWindow, outputTokens, instructions, countTokens } = opts;
  const fixed = countTokens(COMPACTION_SYSTEM) + countTokens(splitTurnPrompt("", instructions));
  return summarizerWindow - outputTokens - fixed - safetyMarginTokens(summarizerWindow);
}

/** Tokens of summary text the short-summary call can carry. */
export function shortSummaryInputBudget(opts: {
  summarizerWindow: number;
  outputTokens: number;
  instructions: string | null;
  countTokens: CountTokens;
}): number {
  const { summarizerWindow, outputTokens, instructions, countTokens } = opts;
  const fixed = countTokens(COMPACTION_SYSTEM) + countTokens(shortSummaryPrompt("", instructions));
  return summarizerWindow - outputTokens - fixed - safetyMarginTokens(summarizerWindow);
}

/**
 * `text` cut at the end so it counts at most `maxTokens` (at a line break when one is near), or
 * "" if `maxTokens` ≤ 0. Used on summaries that must fit a request.
 */
export function clampToTokens(text: string, maxTokens: number, countTokens: CountTokens): string {
  if (maxTokens <= 0) return "";
  const total = countTokens(text);
  if (total <= maxTokens) return text;
  let head = cutChars(text, Math.floor((text.length * maxTokens) / total)).head;
  while (head.length > 0 && countTokens(head) > maxTokens) head = cutChars(head, Math.floor(head.length * 0.9)).head;
  const nl = head.lastIndexOf("\n");
  return (nl > head.length * 0.8 ? head.slice(0, nl) : head).trimEnd();
}
