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

/** Characters that are Markdown markup, not words. */
const MARKUP = new Set(["#", ">", "*", "_", "`", "~", "|"]);
/** Most characters of a text looked at for its first words (markup and fences can pad the start). */
const SCAN_CHARS = 2_000;

const isSpace = (ch: string) => ch <= " " || ch === "\u00a0" || ch === "\u2028" || ch === "\u2029";

/**
 * The first words of `text`, on one line: at most TITLE_MAX_WORDS words and TITLE_MAX_CHARS
 * characters, Markdown markup (headings, emphasis, fences, quotes, list bullets) left out. One
 * pass over the start of the text, no regular expressions: it runs for every node of the graph.
 */
export function firstWords(text: string, maxWords = TITLE_MAX_WORDS, maxChars = TITLE_MAX_CHARS): string {
  let out = "";
  let words = 0;
  let cut = false;
  let lineStart = true;
  // A word is a run of characters that are neither space nor markup: a slice of `text`.
  let wordStart = -1;
  const limit = Math.min(text.length, SCAN_CHARS);
  const flush = (end: number): boolean => {
    if (wordStart < 0) return true;
    if (words === maxWords) {
      cut = true;
      return false;
    }
    const word = text.slice(wordStart, end);
    wordStart = -1;
    out = out ? `${out} ${word}` : word;
    words++;
    if (out.length > maxChars) {
      const clipped = out.slice(0, maxChars);
      const space = clipped.lastIndexOf(" ");
      out = space > 0 ? clipped.slice(0, space) : clipped;
      cut = true;
      return false;
    }
    return true;
  };
  let i = 0;
  for (; i < limit; i++) {
    const ch = text[i]!;
    let separator = isSpace(ch);
    let newline = ch === "\n";
    if (!separator) {
      if (ch === "`" && text.startsWith("```", i)) {
        // A code fence and its language tag.
        if (!flush(i)) break;
        const end = text.indexOf("\n", i);
        i = end < 0 ? limit : end;
        separator = true;
        newline = true;
      } else if (MARKUP.has(ch) || (lineStart && (ch === "-" || ch === "+") && isSpace(text[i + 1] ?? " "))) {
        separator = true;
      }
    }
    if (separator) {
      lineStart = newline || lineStart;
      if (!flush(i)) break;
      continue;
    }
    lineStart = false;
    if (wordStart < 0) wordStart = i;
  }
  if (!cut && flush(i) && limit < text.length) cut = out !== "";
  return cut && out ? `${out}…` : out;
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
