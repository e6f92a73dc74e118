/**
 * The prompts that are part of every request's context (how a summary, a branch summary or a
 * handoff is handed to the model; the preamble a stored branch summary starts with) and `fillTemplate`: apart from the summarizer prompts
 * (prompts.ts, which re-exports these), since building a context is on the first screen (the
 * meter's estimate) and the summarizer prompts are not.
 */
import branchSummaryContextRaw from "../../prompts/branch-summary-context.md?raw";
import branchSummaryPreambleRaw from "../../prompts/branch-summary-preamble.md?raw";
import compactedSystemNoteRaw from "../../prompts/compacted-system-note.md?raw";
import compactionKeptUserTurnsRaw from "../../prompts/compaction-kept-user-turns.md?raw";
import compactionPinnedRaw from "../../prompts/compaction-pinned.md?raw";
import compactionSummaryContextRaw from "../../prompts/compaction-summary-context.md?raw";
import continueReplyRaw from "../../prompts/continue-reply.md?raw";
import handoffContextRaw from "../../prompts/handoff-context.md?raw";

// Trimmed so an editor's trailing newline in a file never changes what the model sees.

/** The user-role message for the latest compaction. Vars: `keptUserTurns` (may be ""), `summary`. */
export const COMPACTION_SUMMARY_CONTEXT = /* @__PURE__ */ compactionSummaryContextRaw.trim();
/** The kept-user-turns section inside the compaction message. Vars: `turns`. */
export const COMPACTION_KEPT_USER_TURNS = /* @__PURE__ */ compactionKeptUserTurnsRaw.trim();
/** The pinned-messages section inside the compaction message, after the kept user turns. Vars: `messages`. */
export const COMPACTION_PINNED = /* @__PURE__ */ compactionPinnedRaw.trim();
/** Appended to the system prompt when the context contains a compaction summary. No vars. */
export const COMPACTED_SYSTEM_NOTE = /* @__PURE__ */ compactedSystemNoteRaw.trim();
/** The user-role message for a `branch_summary` entry. Vars: `summary`. */
export const BRANCH_SUMMARY_CONTEXT = /* @__PURE__ */ branchSummaryContextRaw.trim();
/** Put before the stored summary (core/branch/finish.ts): the user explored another branch and came back. No vars. */
export const BRANCH_SUMMARY_PREAMBLE = /* @__PURE__ */ branchSummaryPreambleRaw.trim();
/** The user-role message for a `handoff` entry. Vars: `document`. */
export const HANDOFF_CONTEXT = /* @__PURE__ */ handoffContextRaw.trim();

/** The user-role request sent after a reply cut off by the output limit, when the user presses Continue. No vars. */
export const CONTINUE_REPLY = /* @__PURE__ */ continueReplyRaw.trim();

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
