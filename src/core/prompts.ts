/**
 * The prompt templates the model sees, one markdown file per prompt in `prompts/` (imported with
 * Vite's `?raw`), exported as named constants, plus `fillTemplate` for their `{{name}}` placeholders.
 * No I/O here, and no prompt text in code: edit the `.md` files.
 */
import branchSummaryRaw from "../../prompts/branch-summary.md?raw";
import branchSummaryCustomRaw from "../../prompts/branch-summary-custom.md?raw";
import branchSummaryOmittedRaw from "../../prompts/branch-summary-omitted.md?raw";
import branchSummarySystemRaw from "../../prompts/branch-summary-system.md?raw";
import chatTitleRaw from "../../prompts/chat-title.md?raw";
import chatTitleSystemRaw from "../../prompts/chat-title-system.md?raw";
import compactionFirstRaw from "../../prompts/compaction-first.md?raw";
import compactionFoldedNoteRaw from "../../prompts/compaction-folded-note.md?raw";
import compactionInstructionsRaw from "../../prompts/compaction-instructions.md?raw";
import compactionShortRaw from "../../prompts/compaction-short.md?raw";
import compactionSplitTurnRaw from "../../prompts/compaction-split-turn.md?raw";
import compactionSplitTurnSectionRaw from "../../prompts/compaction-split-turn-section.md?raw";
import compactionStandingFactsFallbackRaw from "../../prompts/compaction-standing-facts-fallback.md?raw";
import compactionSystemRaw from "../../prompts/compaction-system.md?raw";
import compactionUpdateRaw from "../../prompts/compaction-update.md?raw";
import compactionWindowNoteRaw from "../../prompts/compaction-window-note.md?raw";
import handoffDocumentRaw from "../../prompts/handoff-document.md?raw";
import handoffFocusRaw from "../../prompts/handoff-focus.md?raw";
import memoryProbeAnswerRaw from "../../prompts/memory-probe-answer.md?raw";
import memoryProbeDraftRaw from "../../prompts/memory-probe-draft.md?raw";
import memoryProbeGradeRaw from "../../prompts/memory-probe-grade.md?raw";

export {
  BRANCH_SUMMARY_CONTEXT,
  BRANCH_SUMMARY_PREAMBLE,
  COMPACTED_SYSTEM_NOTE,
  COMPACTION_KEPT_USER_TURNS,
  COMPACTION_PINNED,
  COMPACTION_SUMMARY_CONTEXT,
  CONTINUE_REPLY,
  fillTemplate,
  HANDOFF_CONTEXT,
} from "./prompts-context";

// Trimmed so an editor's trailing newline in a file never changes what the model sees.
// Each marked pure, so a chunk that uses a few prompts does not carry them all.

// ---- the compaction summarizer (core/compaction) ----------------------------------------------

/** System prompt of every compaction summarizer call: summarize for a successor, never continue. No vars. */
export const COMPACTION_SYSTEM = /* @__PURE__ */ compactionSystemRaw.trim();
/** First compaction of a path. Vars: `conversation` (already wrapped), `windowNote`, `instructions` (both may be ""). */
export const COMPACTION_FIRST = /* @__PURE__ */ compactionFirstRaw.trim();
/** Later compactions and later windows. Vars: `previousSummary`, `conversation`, `windowNote`, `instructions`. */
export const COMPACTION_UPDATE = /* @__PURE__ */ compactionUpdateRaw.trim();
/** The prefix of a turn cut in the middle. Vars: `conversation`, `instructions`. */
export const COMPACTION_SPLIT_TURN = /* @__PURE__ */ compactionSplitTurnRaw.trim();
/** The one-line `shortSummary` for the card. Vars: `summary`, `instructions`. */
export const COMPACTION_SHORT = /* @__PURE__ */ compactionShortRaw.trim();
/** The user's custom instructions, as inserted into every summarizer prompt. Vars: `instructions`. */
export const COMPACTION_INSTRUCTIONS = /* @__PURE__ */ compactionInstructionsRaw.trim();
/** "part i of n" when the folded conversation is summarized in windows. Vars: `window`, `windows`. */
export const COMPACTION_WINDOW_NOTE = /* @__PURE__ */ compactionWindowNoteRaw.trim();
/** Appended to the digest with the split-turn prefix summary. Vars: `summary`. */
export const COMPACTION_SPLIT_TURN_SECTION = /* @__PURE__ */ compactionSplitTurnSectionRaw.trim();
/** Put first when the summarizer's output has no "Standing facts & constraints" section. No vars. */
export const COMPACTION_STANDING_FACTS_FALLBACK = /* @__PURE__ */ compactionStandingFactsFallbackRaw.trim();
/** The visible note for user messages too long to keep verbatim. Vars: `count`, `tokens`. */
export const COMPACTION_FOLDED_NOTE = /* @__PURE__ */ compactionFoldedNoteRaw.trim();

// ---- branch summaries (core/branch) -------------------------------------------------------------

/** System prompt of the branch summarizer: summarize the branch that was left, never continue it. No vars. */
export const BRANCH_SUMMARY_SYSTEM = /* @__PURE__ */ branchSummarySystemRaw.trim();
/** The default branch-summary request. Vars: `conversation` (already wrapped), `omittedNote` (may be ""). */
export const BRANCH_SUMMARY = /* @__PURE__ */ branchSummaryRaw.trim();
/**
 * The request when the user gave instructions: they REPLACE the default sections (DESIGN §5).
 * Vars: `conversation`, `omittedNote`, `instructions`.
 */
export const BRANCH_SUMMARY_CUSTOM = /* @__PURE__ */ branchSummaryCustomRaw.trim();
/** Said when the branch's oldest entries did not fit the request. Vars: `omitted` (a count). */
export const BRANCH_SUMMARY_OMITTED = /* @__PURE__ */ branchSummaryOmittedRaw.trim();

// ---- handoff (core/handoff) ----------------------------------------------------------------------

/** The one user message appended to the live context to ask for the handoff document. Vars: `focus` (may be ""). */
export const HANDOFF_DOCUMENT = /* @__PURE__ */ handoffDocumentRaw.trim();
/** The user's focus for the next session, inside the handoff request. Vars: `focus`. */
export const HANDOFF_FOCUS = /* @__PURE__ */ handoffFocusRaw.trim();

/** System prompt for naming a chat with the summary model (Settings: "Generate chat titles"). No vars. */
export const CHAT_TITLE_SYSTEM = /* @__PURE__ */ chatTitleSystemRaw.trim();
/** The request for that title. Vars: `user` (the first message), `assistant` (the first reply). */
export const CHAT_TITLE = /* @__PURE__ */ chatTitleRaw.trim();

// ---- memory check (core/compaction/memory-check.ts) --------------------------------------------

/** Asks the summary model for probe questions with exact source spans. Vars: `count`, `sources`. */
export const MEMORY_PROBE_DRAFT = /* @__PURE__ */ memoryProbeDraftRaw.trim();
/** The question appended to the chat's next request as its last user message. Vars: `question`. */
export const MEMORY_PROBE_ANSWER = /* @__PURE__ */ memoryProbeAnswerRaw.trim();
/** Asks the grader whether an answer states the source fact. Vars: `span`, `question`, `answer`. */
export const MEMORY_PROBE_GRADE = /* @__PURE__ */ memoryProbeGradeRaw.trim();
