/**
 * The prompt templates the model sees, one markdown file per prompt in `prompts/` (imported with
 * Vite's `?raw`), exported as named constants, plus `fillTemplate` for their `{{name}}` placeholders.
 * No I/O here, and no prompt text in code: edit the `.md` files.
 */
import branchSummaryRaw from "../../prompts/branch-summary.md?raw";
import branchSummaryContextRaw from "../../prompts/branch-summary-context.md?raw";
import branchSummaryCustomRaw from "../../prompts/branch-summary-custom.md?raw";
import branchSummaryOmittedRaw from "../../prompts/branch-summary-omitted.md?raw";
import branchSummaryPreambleRaw from "../../prompts/branch-summary-preamble.md?raw";
import branchSummarySystemRaw from "../../prompts/branch-summary-system.md?raw";
import chatTitleRaw from "../../prompts/chat-title.md?raw";
import chatTitleSystemRaw from "../../prompts/chat-title-system.md?raw";
import compactedSystemNoteRaw from "../../prompts/compacted-system-note.md?raw";
import compactionFirstRaw from "../../prompts/compaction-first.md?raw";
import compactionFoldedNoteRaw from "../../prompts/compaction-folded-note.md?raw";
import compactionInstructionsRaw from "../../prompts/compaction-instructions.md?raw";
import compactionKeptUserTurnsRaw from "../../prompts/compaction-kept-user-turns.md?raw";
import compactionShortRaw from "../../prompts/compaction-short.md?raw";
import compactionSplitTurnRaw from "../../prompts/compaction-split-turn.md?raw";
import compactionSplitTurnSectionRaw from "../../prompts/compaction-split-turn-section.md?raw";
import compactionStandingFactsFallbackRaw from "../../prompts/compaction-standing-facts-fallback.md?raw";
import compactionSummaryContextRaw from "../../prompts/compaction-summary-context.md?raw";
import compactionSystemRaw from "../../prompts/compaction-system.md?raw";
import compactionUpdateRaw from "../../prompts/compaction-update.md?raw";
import compactionWindowNoteRaw from "../../prompts/compaction-window-note.md?raw";
import continueReplyRaw from "../../prompts/continue-reply.md?raw";
import handoffContextRaw from "../../prompts/handoff-context.md?raw";
import handoffDocumentRaw from "../../prompts/handoff-document.md?raw";
import handoffFocusRaw from "../../prompts/handoff-focus.md?raw";

// Trimmed so an editor's trailing newline in a file never changes what the model sees.

/** The user-role message for the latest compaction. Vars: `keptUserTurns` (may be ""), `summary`. */
export const COMPACTION_SUMMARY_CONTEXT = compactionSummaryContextRaw.trim();
/** The kept-user-turns section inside the compaction message. Vars: `turns`. */
export const COMPACTION_KEPT_USER_TURNS = compactionKeptUserTurnsRaw.trim();
/** Appended to the system prompt when the context contains a compaction summary. No vars. */
export const COMPACTED_SYSTEM_NOTE = compactedSystemNoteRaw.trim();
/** The user-role message for a `branch_summary` entry. Vars: `summary`. */
export const BRANCH_SUMMARY_CONTEXT = branchSummaryContextRaw.trim();
/** The user-role message for a `handoff` entry. Vars: `document`. */
export const HANDOFF_CONTEXT = handoffContextRaw.trim();

/** The user-role request sent after a reply cut off by the output limit, when the user presses Continue. No vars. */
export const CONTINUE_REPLY = continueReplyRaw.trim();

// ---- the compaction summarizer (core/compaction) ----------------------------------------------

/** System prompt of every compaction summarizer call: summarize for a successor, never continue. No vars. */
export const COMPACTION_SYSTEM = compactionSystemRaw.trim();
/** First compaction of a path. Vars: `conversation` (already wrapped), `windowNote`, `instructions` (both may be ""). */
export const COMPACTION_FIRST = compactionFirstRaw.trim();
/** Later compactions and later windows. Vars: `previousSummary`, `conversation`, `windowNote`, `instructions`. */
export const COMPACTION_UPDATE = compactionUpdateRaw.trim();
/** The prefix of a turn cut in the middle. Vars: `conversation`, `instructions`. */
export const COMPACTION_SPLIT_TURN = compactionSplitTurnRaw.trim();
/** The one-line `shortSummary` for the card. Vars: `summary`, `instructions`. */
export const COMPACTION_SHORT = compactionShortRaw.trim();
/** The user's custom instructions, as inserted into every summarizer prompt. Vars: `instructions`. */
export const COMPACTION_INSTRUCTIONS = compactionInstructionsRaw.trim();
/** "part i of n" when the folded conversation is summarized in windows. Vars: `window`, `windows`. */
export const COMPACTION_WINDOW_NOTE = compactionWindowNoteRaw.trim();
/** Appended to the digest with the split-turn prefix summary. Vars: `summary`. */
export const COMPACTION_SPLIT_TURN_SECTION = compactionSplitTurnSectionRaw.trim();
/** Put first when the summarizer's output has no "Standing facts & constraints" section. No vars. */
export const COMPACTION_STANDING_FACTS_FALLBACK = compactionStandingFactsFallbackRaw.trim();
/** The visible note for user messages too long to keep verbatim. Vars: `count`, `tokens`. */
export const COMPACTION_FOLDED_NOTE = compactionFoldedNoteRaw.trim();

// ---- branch summaries (core/branch) -------------------------------------------------------------

/** System prompt of the branch summarizer: summarize the branch that was left, never continue it. No vars. */
export const BRANCH_SUMMARY_SYSTEM = branchSummarySystemRaw.trim();
/** The default branch-summary request. Vars: `conversation` (already wrapped), `omittedNote` (may be ""). */
export const BRANCH_SUMMARY = branchSummaryRaw.trim();
/**
 * The request when the user gave instructions: they REPLACE the default sections (DESIGN §5).
 * Vars: `conversation`, `omittedNote`, `instructions`.
 */
export const BRANCH_SUMMARY_CUSTOM = branchSummaryCustomRaw.trim();
/** Said when the branch's oldest entries did not fit the request. Vars: `omitted` (a count). */
export const BRANCH_SUMMARY_OMITTED = branchSummaryOmittedRaw.trim();
/** Put before the stored summary: the user explored another branch and came back. No vars. */
export const BRANCH_SUMMARY_PREAMBLE = branchSummaryPreambleRaw.trim();

// ---- handoff (core/handoff) ----------------------------------------------------------------------

/** The one user message appended to the live context to ask for the handoff document. Vars: `focus` (may be ""). */
export const HANDOFF_DOCUMENT = handoffDocumentRaw.trim();
/** The user's focus for the next session, inside the handoff request. Vars: `focus`. */
export const HANDOFF_FOCUS = handoffFocusRaw.trim();

const PLACEHOLDER = /\{\{([A-Za-z0-9_]+)\}\}/g;
const LONE_PLACEHOLDER_LINE = /^[ \t]*\{\{([A-Za-z0-9_]+)\}\}[ \t]*$/;

/**
 * Replaces `{{name}}` placeholders with `vars[name]`, in one pass over the template: values are
 * inserted verbatim and never scanned for placeholders themselves (a summary that happens to
 * contain `{{summary}}` stays as it is).
 *
 * A placeholder alone on its line whose value is `""` removes that line and one blank line after
 * it, so an empty optional section leaves no hole. Placeholders without a value are left as they
 * are (visible, rather than silently empty).
 *
 * @example fillTemplate("Hi {{name}}!", { name: "Ada" }) === "Hi Ada!"
 */
export function fillTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  const lines = template.split("\n");
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const lone = LONE_PLACEHOLDER_LINE.exec(line);
    if (lone && vars[lone[1] ?? ""] === "") {
      if ((lines[i + 1] ?? "x").trim() === "") i++;
      continue;
    }
    kept.push(line);
  }
  return kept.join("\n").replace(PLACEHOLDER, (whole, name: string) => {
    const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
    return value ?? whole;
  });
}

/** System prompt for naming a chat with the summary model (Settings: "Name new chats with the summary model"). No vars. */
export const CHAT_TITLE_SYSTEM = chatTitleSystemRaw.trim();
/** The request for that title. Vars: `user` (the first message), `assistant` (the first reply). */
export const CHAT_TITLE = chatTitleRaw.trim();
