/**
 * How the compaction engine classifies and sizes entries: which entries are user turns, tool
 * results, turn starts and legal cut points, and how an entry's context text
 * (`entryContextText`, core/session/entry-text.ts) is counted.
 * No I/O here and no token counting of its own: counts come from the injected counter.
 */
import { attachmentTokens } from "../attachments/attachment-tokens";
import { assertNever, type Entry, type MessageEntry } from "../session/entries";
import { entryContextText } from "../session/entry-text";
import { hasContent, isSkippedMessage } from "../session/plan-context";

/** Counts a piece of text in tokens. Must be pure and deterministic. */
export type CountTokens = (text: string) => number;
/**
 * Tokens one entry adds to the context, as `entryContextText` renders it. Meant to be a cache lookup
 * (the worker's `tokenCounts` table) so that preparing a huge path never re-counts its text.
 */
export type EntryTokens = (entry: Entry) => number;

/** A tool result: a `tool` message, or any message carrying a `tool_result` block. Never starts the kept region. */
export function isToolResultEntry(entry: Entry): boolean {
  return entry.type === "message" && (entry.role === "tool" || entry.content.some((b) => b.type === "tool_result"));
}

/** A user turn: a user message with something in it that is not a tool result. These are kept verbatim. */
export function isUserTurn(entry: Entry): entry is MessageEntry {
  return (
    entry.type === "message" &&
    entry.role === "user" &&
    !isToolResultEntry(entry) &&
    !isSkippedMessage(entry) &&
    hasContent(entry.content)
  );
}

/**
 * Where a turn starts: a user turn, or a branch summary / handoff (user-role context after which the
 * user speaks). A cut anywhere else inside a turn is a split turn.
 */
export function isTurnStart(entry: Entry): boolean {
  return isUserTurn(entry) || entry.type === "branch_summary" || entry.type === "handoff";
}

/**
 * Whether the kept region may start at this entry (before tool-call pairing is checked): a user or
 * assistant message that is not a tool result and is not skipped by `buildContext`, or a branch
 * summary / handoff. Never a tool result, never a compaction entry.
 */
export function isCutCandidate(entry: Entry): boolean {
  switch (entry.type) {
    case "message":
      return (
        (entry.role === "user" || entry.role === "assistant") && !isToolResultEntry(entry) && !isSkippedMessage(entry)
      );
    case "branch_summary":
    case "handoff":
    case "context_note":
    case "command":
      return true;
    case "compaction":
    case "model_change":
    case "thinking_level_change":
    case "custom":
      return false;
    default:
      return assertNever(entry, "entry");
  }
}

/**
 * The counter used when no cache is given: `countTokens(entryContextText(entry))`, plus the estimate
 * of each image and PDF a sent message carries (their labels alone would say they cost nothing).
 */
export function entryTokensFrom(countTokens: CountTokens): EntryTokens {
  return (entry) => {
    if (entry.type === "compaction") return 0;
    const text = countTokens(entryContextText(entry));
    if (entry.type !== "message" || isSkippedMessage(entry)) return text;
    return entry.content.reduce((sum, b) => sum + attachmentTokens(b), text);
  };
}
