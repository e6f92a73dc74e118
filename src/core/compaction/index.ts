/**
 * The compaction engine's public surface (DESIGN §4), for the worker and the state layer:
 * `prepareCompaction` plans, `runCompaction` calls the injected summarizer and returns the entry to
 * append (or a failure), `thresholdFor` / `progressGuard` serve the triggers.
 * Pure: no I/O anywhere in this folder; effects are injected.
 */
export type {
  CompactionDetails,
  CompactionOutcome,
  CompactionProgress,
  NewCompactionEntry,
  RunDeps,
  SummarizeFn,
} from "./compact";
export { runCompaction, tokensAfterAppending } from "./compact";
export type { CutPoint, FoldableRegion } from "./cut-point";
export { cutAfterEntry, findCutPoint, foldableRegion, legalCuts } from "./cut-point";
export { FRAMING_FIRST_SENTENCE, SHORT_SUMMARY_MAX_CHARS } from "./digest";
export type { CountTokens, EntryTokens } from "./entry-text";
export { entryContextText, entryTokensFrom, isToolResultEntry, isUserTurn } from "./entry-text";
export type { KeptTurns } from "./kept-turns";
export type { CompactionPlan, PrepareOptions, PrepareResult } from "./prepare";
export { prepareCompaction } from "./prepare";
export { PROGRESS_GUARD_FRACTION, progressGuard } from "./progress-guard";
export type { SummarizePurpose, SummarizeRequest } from "./requests";
export { serializeConversation } from "./serialize";
export type { CompactionSettings } from "./settings";
export { DEFAULT_COMPACTION_SETTINGS, keepRecentTokensFor, keptUserTurnsBudgetFor, thresholdFor } from "./settings";
export { spliceTail, stripTail, TAIL_MAX_CHARS } from "./verbatim-tail";
