/**
 * The words the history graph shows for an entry: its kind, its title (first words) and the text
 * search looks through. Pure: no I/O.
 */
import { type Block, type Entry, messageText } from "../session/entries";

export type GraphNodeKind = "user" | "assistant" | "tool" | "compaction" | "branch_summary" | "handoff";

/** What a node is called, first in its accessible name ("User message · …"). */
export const KIND_NAME: Readonly<Record<GraphNodeKind, string>> = {
  user: "User message",
  assistant: "Assistant message",
  tool: "Tool result",
  compaction: "Compaction",
  branch_summary: "Branch summary",
  handoff: "Handoff",
};

/** Most words a title keeps. */
export const TITLE_MAX_WORDS = 9;
/** Most characters a title keeps (an ellipsis marks the cut). */
export const TITLE_MAX_CHARS = 64;
/** Most characters of an entry that search looks through (the start of very long replies). */
export const SEARCH_MAX_CHARS = 4_000;

export function kindOf(entry: Entry): GraphNodeKind {
  switch (entry.type) {
    case "message":
      return entry.role;
    case "compaction":
    case "branch_summary":
    case "handoff":
      return entry.type;
  }
}

/** The first words of `text`, on one line: at most TITLE_MAX_WORDS words and TITLE_MAX_CHARS characters. */
export function firstWords(text: string, maxWords = TITLE_MAX_WORDS, maxChars = TITLE_MAX_CHARS): string {
  // Markdown noise (headings, emphasis, fences, list bullets) is not a word.
  const flat = text
    .replace(/```[^\n]*\n?/g, " ")
    .replace(/[#>*_`~|]+/g, " ")
    .replace(/^\s*[-+]\s+/gm, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!flat) return "";
  const words = flat.split(" ");
  let out = words.slice(0, maxWords).join(" ");
  let cut = words.length > maxWords;
  if (out.length > maxChars) {
    out = out.slice(0, maxChars).replace(/\s+\S*$/, "") || out.slice(0, maxChars);
    cut = true;
  }
  return cut ? `${out}…` : out;
}

/** The entry's own words, whole: what "Copy text" copies and search looks through. */
export function entryText(entry: Entry): string {
  switch (entry.type) {
    case "message": {
      const text = messageText(entry.content);
      const tools = entry.content
        .map((b) => (b.type === "tool_call" ? `${b.name}` : b.type === "tool_result" ? b.text : ""))
        .filter(Boolean)
        .join("\n");
      return tools ? (text ? `${text}\n${tools}` : tools) : text;
    }
    case "compaction":
      return `${entry.shortSummary}\n\n${entry.summary}`;
    case "branch_summary":
      return entry.summary;
    case "handoff":
      return entry.document;
  }
}

/** Characters of an entry's text a title is made from (enough for TITLE_MAX_CHARS after cleaning). */
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
      if (entry.content.some((b) => b.type === "thinking")) return "Thinking only";
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
  }
}

// Entries are immutable: their search text is computed once per entry object.
const searchTexts = new WeakMap<Entry, string>();

/** Lower-cased text search looks through (at most SEARCH_MAX_CHARS characters of the entry). */
export function searchTextOf(entry: Entry): string {
  let text = searchTexts.get(entry);
  if (text === undefined) {
    text = entryText(entry).slice(0, SEARCH_MAX_CHARS).toLowerCase();
    searchTexts.set(entry, text);
  }
  return text;
}

/** The lower-cased terms of a query; empty when there is nothing to look for. */
export function searchTerms(query: string | undefined): string[] {
  return (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}
