/**
 * The words the history graph shows for an entry: its kind and its title (first words, from
 * core/session/entry-text.ts, where the text search looks through lives too). Pure: no I/O.
 */

import { settingChangeText } from "../session/agent-entries";
import type { Block, Entry } from "../session/entries";
import { contextNoteText, firstWords } from "../session/entry-text";

export type GraphNodeKind =
  | "user"
  | "assistant"
  | "tool"
  | "compaction"
  | "branch_summary"
  | "handoff"
  | "setting"
  | "extension_data"
  | "note"
  | "command"
  | "run";

/** What a node is called, first in its accessible name ("User message · …"). */
export const KIND_NAME: Readonly<Record<GraphNodeKind, string>> = {
  user: "User message",
  assistant: "Assistant message",
  tool: "Tool result",
  compaction: "Compaction",
  branch_summary: "Branch summary",
  handoff: "Handoff",
  run: "Collapsed run",
  setting: "Setting change",
  extension_data: "Extension data",
  note: "Context note",
  command: "Command",
};

export function kindOf(entry: Entry): Exclude<GraphNodeKind, "run"> {
  switch (entry.type) {
    case "message":
      return entry.role;
    case "compaction":
    case "branch_summary":
    case "handoff":
      return entry.type;
    case "model_change":
    case "thinking_level_change":
      return "setting";
    case "custom":
      return "extension_data";
    case "context_note":
      return "note";
    case "command":
      return "command";
  }
}

/** Characters of an entry's text a title is made from (enough for FIRST_WORDS_MAX_CHARS after cleaning). */
const TITLE_SOURCE_CHARS = 400;

/** The start of a message's text blocks, joined, at most `max` characters (long replies are not copied whole). */
function textStart(content: readonly Block[], max: number): string {
  let out = "";
  for (const b of content) {
    if (b.type !== "text") continue;
    out = out ? `${out}\n\n${b.text.slice(0, max)}` : b.text.slice(0, max);
    if (out.length >= max) return out.slice(0, max);
  }
  return out;
}

const titles = new WeakMap<Entry, string>();

/**
 * The node's title: the first words of what it says, or what it is when it says nothing. Entries
 * are immutable, so it is computed once per entry.
 */
export function entryTitle(entry: Entry): string {
  let title = titles.get(entry);
  if (title === undefined) {
    title = computeTitle(entry);
    titles.set(entry, title);
  }
  return title;
}

function computeTitle(entry: Entry): string {
  switch (entry.type) {
    case "message": {
      const words = firstWords(textStart(entry.content, TITLE_SOURCE_CHARS));
      if (words) return words;
      const call = entry.content.find((b) => b.type === "tool_call");
      if (call) return `Tool call: ${call.name}`;
      const result = entry.content.find((b) => b.type === "tool_result");
      if (result)
        return firstWords(result.text.slice(0, TITLE_SOURCE_CHARS)) || `Result of ${result.toolName ?? "a tool"}`;
      if (entry.content.some((b) => b.type === "image")) return "Image";
      if (entry.status === "error") return entry.error ? firstWords(`Error: ${entry.error.message}`) : "Error";
      if (entry.content.some((b) => b.type === "thinking" || b.type === "reasoning")) return "Thinking only";
      return "Empty";
    }
    case "compaction":
      return (
        firstWords(entry.shortSummary.slice(0, TITLE_SOURCE_CHARS)) ||
        firstWords(entry.summary.slice(0, TITLE_SOURCE_CHARS)) ||
        "Earlier turns compacted"
      );
    case "branch_summary":
      return firstWords(entry.summary.slice(0, TITLE_SOURCE_CHARS)) || "Summary of a branch";
    case "handoff":
      return firstWords(entry.document.slice(0, TITLE_SOURCE_CHARS)) || "Handoff document";
    case "model_change":
    case "thinking_level_change":
      return settingChangeText(entry);
    case "custom":
      return entry.customType;
    case "context_note":
      return firstWords(contextNoteText(entry).slice(0, TITLE_SOURCE_CHARS)) || entry.customType;
    case "command":
      return `$ ${entry.command}`.slice(0, TITLE_SOURCE_CHARS);
  }
}
