/**
 * The summarizer's input (DESIGN §4.5): folded entries as plain text with role tags, wrapped in
 * `<conversation>`. A plain transcript, not chat messages, so the summarizer reads the conversation
 * as material instead of taking part in it.
 *
 * - Messages: `[User]`, `[Assistant]`, `[Tool call] name` (+ JSON arguments), `[Tool result] name`
 *   (` (error)` when it failed); a stopped, interrupted or failed reply says so on its tag line.
 *   Thinking is dropped; images become `[image]`; messages `buildContext` skips are left out.
 * - Tool results (and tool-call arguments) longer than 2,000 characters are cut, with a marker
 *   saying how much was left out.
 * - Branch summaries, handoff documents and compaction summaries in the folded region are context
 *   the model saw: `[Branch summary]`, `[Handoff document]`, `[Compaction summary]` (without its
 *   `<verbatim_tail>`).
 * - Inside content, the structural tags of our prompts (`<conversation>`, `<previous-summary>`,
 *   `<instructions>`, `<summary>`, `<verbatim_tail>`) are escaped (`&lt;…&gt;`) and a line that
 *   starts like a role tag gets a backslash, so no message can close the transcript or fake a turn.
 *
 * Pure: no I/O, no token counting (windows.ts counts).
 */

import { attachmentLabel, textFileText } from "../attachments/attachment-text";
import { commandContextText, isCommandSent } from "../session/agent-entries";
import { assertNever, type Block, type Entry, type MessageEntry, type ServerToolBlock } from "../session/entries";
import { argsJson, contextNoteText, serverToolLabel, serverToolText } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import { isSkippedMessage } from "../session/plan-context";
import { stripTail } from "./verbatim-tail";

/** Tool output beyond this many characters is cut (DESIGN §4.5). */
export const TOOL_RESULT_MAX_CHARS = 2_000;
/** Tool-call arguments beyond this many characters are cut too (a `write` call carries a whole file). */
const TOOL_ARGS_MAX_CHARS = 2_000;
/** An error message on a failed reply is shown up to this many characters. */
const ERROR_NOTE_MAX_CHARS = 300;

const ROLE_TAGS = [
  "User",
  "Assistant",
  "Tool call",
  "Tool result",
  "Branch summary",
  "Handoff document",
  "Compaction summary",
] as const;

const STRUCTURAL_TAG = /<(\/?)(conversation|previous-summary|instructions|summary|verbatim_tail)(\s[^<>]*)?>/gi;
const ROLE_TAG_LINE = new RegExp(`^\\[(${ROLE_TAGS.join("|")})\\]`, "gm");

/** Escapes our prompts' structural tags in `text` so it can sit inside them as data. */
export function escapeStructuralTags(text: string): string {
  return text.replace(STRUCTURAL_TAG, (_whole, slash: string, name: string, rest: string | undefined) => {
    return `&lt;${slash}${name}${rest ?? ""}&gt;`;
  });
}

/** Content text made safe for the transcript: structural tags escaped, role-tag lines defused. */
function escapeContent(text: string): string {
  return escapeStructuralTags(text).replace(ROLE_TAG_LINE, "\\[$1]");
}

/** `text` cut to `max` UTF-16 units without splitting a surrogate pair, and how many were left out. */
export function cutChars(text: string, max: number): { head: string; omitted: number } {
  if (text.length <= max) return { head: text, omitted: 0 };
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return { head: text.slice(0, end), omitted: text.length - end };
}

function clamped(text: string, max: number, what: string): string {
  const { head, omitted } = cutChars(text, max);
  return omitted === 0 ? text : `${head}\n[... ${omitted} more characters of ${what} cut]`;
}

export type SerializeOptions = {
  /** User turns too long to keep verbatim: their tag asks the summarizer to cover them in detail. */
  oversizedUserTurnIds?: ReadonlySet<EntryId>;
};

export type SerializedSegment = { entryId: EntryId; text: string };

function statusNote(entry: MessageEntry): string {
  switch (entry.status) {
    case "complete":
      return "";
    case "stopped":
      return " (stopped by the user before it finished)";
    case "interrupted":
      return " (interrupted before it finished)";
    case "error": {
      const msg = entry.error?.message ? `: ${clamped(entry.error.message, ERROR_NOTE_MAX_CHARS, "the error")}` : "";
      return ` (failed${msg.replace(/\s+/g, " ")})`;
    }
    default:
      return assertNever(entry.status, "status");
  }
}

/** Groups a message's blocks into tagged parts, in order: consecutive text/images share one tag. */
function messageParts(entry: MessageEntry, opts: SerializeOptions): string[] {
  const parts: string[] = [];
  let pending: string[] = [];
  const textTag =
    entry.role === "assistant"
      ? `[Assistant]${statusNote(entry)}`
      : entry.role === "tool"
        ? "[Tool result]"
        : `[User]${opts.oversizedUserTurnIds?.has(entry.id) ? " (long message, not kept word for word: cover what it contains)" : ""}`;
  const flush = (): void => {
    const body = pending.join("\n\n");
    if (body.trim() !== "") parts.push(`${textTag}\n${body}`);
    pending = [];
  };
  for (const block of entry.content as readonly Block[]) {
    switch (block.type) {
      case "text":
        pending.push(escapeContent(block.text));
        break;
      // Named, never sent as pixels or pages: the summarizer reads text (the summary keeps the name).
      case "image":
      case "document":
        pending.push(escapeContent(attachmentLabel(block)));
        break;
      case "text_file":
        pending.push(escapeContent(textFileText(block)));
        break;
      case "thinking":
      case "reasoning":
        break;
      case "tool_call":
        flush();
        parts.push(
          `[Tool call] ${escapeContent(block.name)}\n${escapeContent(clamped(argsJson(block.args), TOOL_ARGS_MAX_CHARS, "arguments"))}`,
        );
        break;
      case "tool_result": {
        flush();
        const name = block.toolName ? ` ${escapeContent(block.toolName)}` : "";
        const text = escapeContent(clamped(block.text, TOOL_RESULT_MAX_CHARS, "tool output"));
        parts.push(`[Tool result]${name}${block.isError ? " (error)" : ""}\n${text}`);
        break;
      }
      case "server_tool": {
        // The provider ran it: the call and what came back read like any tool's, output cut alike.
        flush();
        parts.push(...serverToolParts(block));
        break;
      }
      default:
        assertNever(block, "block");
    }
  }
  flush();
  return parts;
}

/** A server tool block as `[Tool call]` (its input) and/or `[Tool result]` (what came back) parts. */
function serverToolParts(block: ServerToolBlock): string[] {
  const name = escapeContent(`${serverToolLabel(block)} (run by the provider)`);
  const out: string[] = [];
  if (block.part !== "result" && block.input !== undefined) {
    out.push(`[Tool call] ${name}\n${escapeContent(clamped(argsJson(block.input), TOOL_ARGS_MAX_CHARS, "arguments"))}`);
  }
  if (block.part !== "use") {
    const { input: _input, ...rest } = block;
    const text = serverToolText({ ...rest, part: "result" })
      .split("\n")
      .slice(1)
      .join("\n");
    out.push(
      `[Tool result] ${name}${block.isError ? " (error)" : ""}\n${escapeContent(clamped(text, TOOL_RESULT_MAX_CHARS, "tool output"))}`,
    );
  }
  return out;
}

/** One entry as transcript text; "" for entries the model never saw (skipped messages). */
export function serializeEntry(entry: Entry, opts: SerializeOptions = {}): string {
  switch (entry.type) {
    case "message":
      return isSkippedMessage(entry) ? "" : messageParts(entry, opts).join("\n\n");
    case "branch_summary":
      return `[Branch summary]\n${escapeContent(entry.summary.trim())}`;
    case "handoff":
      return `[Handoff document]\n${escapeContent(entry.document.trim())}`;
    case "compaction":
      return `[Compaction summary]\n${escapeContent(stripTail(entry.summary).trim())}`;
    case "context_note":
      return `[Note: ${entry.customType}]\n${escapeContent(contextNoteText(entry).trim())}`;
    case "command":
      return isCommandSent(entry) ? `[User ran a command]\n${escapeContent(commandContextText(entry).trim())}` : "";
    case "model_change":
    case "thinking_level_change":
    case "custom":
      return "";
    default:
      return assertNever(entry, "entry");
  }
}

/** The transcript of `entries` as segments (one per entry that shows up), in order. */
export function serializeSegments(entries: readonly Entry[], opts: SerializeOptions = {}): SerializedSegment[] {
  const out: SerializedSegment[] = [];
  for (const e of entries) {
    const text = serializeEntry(e, opts);
    if (text !== "") out.push({ entryId: e.id, text });
  }
  return out;
}

/** Separator between segments in the transcript. */
export const SEGMENT_SEPARATOR = "\n\n";

/** Wraps transcript text in `<conversation>` tags. */
export function wrapConversation(body: string): string {
  return `<conversation>\n${body}\n</conversation>`;
}

/** The whole transcript of `entries`, wrapped. */
export function serializeConversation(entries: readonly Entry[], opts: SerializeOptions = {}): string {
  return wrapConversation(
    serializeSegments(entries, opts)
      .map((s) => s.text)
      .join(SEGMENT_SEPARATOR),
  );
}
