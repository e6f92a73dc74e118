/**
 * Entry → text, in one place (issue 9): a block as plain text (`blockText`, what the model is sent
 * in place of a tool block or an image), an entry's context text (what a token count counts), its
 * whole words (what "Copy text" copies and BOTH searches — the sidebar's and the graph's — look
 * through), the first words of a text (automatic session titles), and an entry's title (the
 * graph's nodes, the summary cards, the branch export).
 *
 * Specialised serializers with another job (the summarizer transcript in
 * core/compaction/serialize.ts, the Markdown and HTML exports) build on these pieces.
 * Pure: no I/O.
 */
import { attachmentLabel, textFileText } from "../attachments/attachment-text";
import { BRANCH_SUMMARY_PREAMBLE } from "../prompts-context";
import { commandContextText, isCommandSent, settingChangeText } from "./agent-entries";
import {
  assertNever,
  type Block,
  type ContextNoteEntry,
  type Entry,
  messageText,
  type ServerToolBlock,
  type ServerToolKind,
  type ToolResultBlock,
} from "./entries";
import { isSkippedMessage } from "./plan-context";

/** Tool-call arguments as compact JSON; `{}` when there are none. */
export function argsJson(value: unknown): string {
  if (value === undefined) return "{}";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Circular or BigInt args (never from a provider, possibly from a hand-made import).
    return String(value);
  }
}

/** `[Tool call: name]` followed by the arguments as compact JSON. */
export function toolCallText(name: string, args: unknown): string {
  return `[Tool call: ${name}]\n${argsJson(args)}`;
}

/** `[Tool result: name]` (or `[Tool result]` without a name), ` (error)` if it failed, then the text. */
export function toolResultText(text: string, toolName: string | undefined, isError: boolean): string {
  const label = toolName ? `Tool result: ${toolName}` : "Tool result";
  return `[${label}]${isError ? " (error)" : ""}\n${text}`;
}

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function headOf(text: string, max: number): string {
  const end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  return text.slice(0, end > 0 && code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

/** The note after a tool result the model sees only the start of. */
function toolResultTruncationNote(shownChars: number, totalChars: number): string {
  return `[Output truncated: the model is shown the first ${shownChars} of ${totalChars} characters]`;
}

/**
 * A tool result's text as the model is sent it: whole, or (a result larger than the model may see,
 * `shownChars`; or one cut for storage, `originalChars`) its start followed by the truncation note.
 */
export function toolResultModelText(block: ToolResultBlock): string {
  const total = block.originalChars ?? block.text.length;
  const shown = block.shownChars !== undefined ? Math.min(block.shownChars, block.text.length) : block.text.length;
  if (shown >= total) return block.text;
  return `${headOf(block.text, shown)}\n\n${toolResultTruncationNote(shown, total)}`;
}

const SERVER_TOOL_LABELS: Record<ServerToolKind, string> = {
  web_search: "Web search",
  web_fetch: "Web fetch",
  code_execution: "Code execution",
  mcp: "MCP tool",
  other: "Server tool",
};

/** What kind of provider-run tool it is, in words: "Web search", "MCP tool". */
export const serverToolKindLabel = (tool: ServerToolKind): string => SERVER_TOOL_LABELS[tool];

/** A server tool's label: "Web search", "MCP tool: files/read_file", "Server tool: tool_search". */
export function serverToolLabel(block: Pick<ServerToolBlock, "tool" | "name" | "server">): string {
  const label = SERVER_TOOL_LABELS[block.tool];
  if (block.tool === "mcp") return `${label}: ${block.server ? `${block.server}/` : ""}${block.name}`;
  return block.tool === "other" ? `${label}: ${block.name}` : label;
}

/** A server tool's input as text: the query, URL, command or code when it is one of those, else JSON. */
function serverToolInputText(input: unknown): string {
  if (typeof input === "object" && input !== null) {
    const i = input as Record<string, unknown>;
    for (const key of ["query", "url", "command", "code"]) {
      const v = i[key];
      if (typeof v === "string" && Object.keys(i).length === 1) return v;
    }
  }
  return argsJson(input);
}

/**
 * A server tool block as plain text (what another provider, the counters, the searches and the
 * summarizer read): `[Web search]` and the query; `[Web search results]`-style output with each
 * source as `- title (url)`; the code and its output; ` (error)` when it failed.
 */
export function serverToolText(block: ServerToolBlock): string {
  const lines = [
    `[${serverToolLabel(block)}${block.part === "result" ? " result" : ""}]${block.isError ? " (error)" : ""}`,
  ];
  if (block.input !== undefined) lines.push(serverToolInputText(block.input));
  for (const s of block.sources ?? []) lines.push(`- ${s.title ? `${s.title} ` : ""}(${s.url})`);
  if (block.output) lines.push(block.output);
  if (block.files && block.files.length > 0) lines.push(`Files: ${block.files.join(", ")}`);
  return lines.join("\n");
}

/** What `blockText` does with a thinking block: keep its visible text, or drop it (null). */
export type BlockTextOptions = { thinking: "keep" | "drop" };

/**
 * A block as plain text: for user-role messages and tool blocks in the context (thinking dropped:
 * it only goes back as a thinking block), and for counting an entry's context text (thinking kept:
 * it is replayed to its own provider, so it takes up room).
 */
export function blockText(block: Block, opts: { thinking: "keep" }): string;
export function blockText(block: Block, opts: BlockTextOptions): string | null;
export function blockText(block: Block, opts: BlockTextOptions): string | null {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return opts.thinking === "keep" ? block.text : null;
    case "reasoning":
      return opts.thinking === "keep" ? block.summary.join("\n\n") : null;
    // What stands in for an image or a PDF where its data is not sent (build-context sends the data).
    case "image":
    case "document":
      return attachmentLabel(block);
    case "text_file":
      return textFileText(block);
    case "tool_call":
      return toolCallText(block.name, block.args);
    case "tool_result":
      return toolResultText(toolResultModelText(block), block.toolName, block.isError);
    case "server_tool":
      return serverToolText(block);
    default:
      return assertNever(block, "block");
  }
}

/** A context note's content as the user-role text it is sent as (images as their placeholder). */
export function contextNoteText(e: ContextNoteEntry): string {
  return e.content.map((b) => blockText(b, { thinking: "drop" }) ?? "").join("\n\n");
}

/** The plain text of a message's text blocks (no tool blocks, no thinking), joined and trimmed. */
export function visibleText(content: readonly Block[]): string {
  return messageText(content).trim();
}

/**
 * The text an entry puts in the context, for counting: message blocks as `buildContext` renders
 * them, a branch summary's summary, a handoff's document. Compaction entries put nothing in the
 * kept region ("" — only the latest one is rendered, as the summary message).
 */
export function entryContextText(entry: Entry): string {
  switch (entry.type) {
    case "message":
      // Thinking is kept: it is replayed to its own provider, so it takes up room in the context.
      return isSkippedMessage(entry) ? "" : entry.content.map((b) => blockText(b, { thinking: "keep" })).join("\n\n");
    case "branch_summary":
      return entry.summary;
    case "handoff":
      return entry.document;
    case "compaction":
    case "model_change":
    case "thinking_level_change":
    case "custom":
      return "";
    case "context_note":
      return contextNoteText(entry);
    case "command":
      return isCommandSent(entry) ? commandContextText(entry) : "";
    default:
      return assertNever(entry, "entry");
  }
}

/**
 * The entry's own words, whole: a message's text, then its tool calls' names and tool results'
 * text; a compaction's short and full summary; a branch summary; a handoff document. What "Copy
 * text" copies, and what the sidebar search and the graph search look through.
 */
export function entryText(entry: Entry): string {
  switch (entry.type) {
    case "message": {
      const text = messageText(entry.content);
      const tools = entry.content
        .map((b) =>
          b.type === "tool_call"
            ? b.name
            : b.type === "tool_result"
              ? b.text
              : b.type === "server_tool"
                ? serverToolText(b)
                : b.type === "text_file"
                  ? textFileText(b)
                  : b.type === "image" || b.type === "document"
                    ? attachmentLabel(b)
                    : "",
        )
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
    case "model_change":
    case "thinking_level_change":
      return settingChangeText(entry);
    case "custom":
      return entry.customType;
    case "context_note":
      return contextNoteText(entry);
    case "command":
      return entry.output ? `${entry.command}\n${entry.output}` : entry.command;
    default:
      return assertNever(entry, "entry");
  }
}

// Entries are immutable: their search text is computed once per entry object.
const searchTexts = new WeakMap<Entry, string>();

/** `entryText`, lower-cased: what every search looks through (whole, however long). */
export function entrySearchText(entry: Entry): string {
  let text = searchTexts.get(entry);
  if (text === undefined) {
    text = entryText(entry).toLowerCase();
    searchTexts.set(entry, text);
  }
  return text;
}

/** Most words `firstWords` keeps by default (graph titles). */
const FIRST_WORDS_MAX_WORDS = 9;
/** Most characters `firstWords` keeps by default (an ellipsis marks the cut). */
const FIRST_WORDS_MAX_CHARS = 64;

/** Characters that are Markdown markup, not words. */
const MARKUP = new Set(["#", ">", "*", "_", "`", "~", "|"]);
/** Most characters of a text looked at for its first words (markup and fences can pad the start). */
const SCAN_CHARS = 2_000;

const isSpace = (ch: string) => ch <= " " || ch === "\u00a0" || ch === "\u2028" || ch === "\u2029";

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function clipUnits(text: string, max: number): string {
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * The first words of `text`, on one line: at most `maxWords` words and `maxChars` characters (an
 * ellipsis marks a cut), Markdown markup (headings, emphasis, fences, quotes, list bullets) left
 * out. One pass over the start of the text, no regular expressions: it runs for every node of the
 * graph. "" when the text has no words.
 */
export function firstWords(text: string, maxWords = FIRST_WORDS_MAX_WORDS, maxChars = FIRST_WORDS_MAX_CHARS): string {
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
      const clipped = clipUnits(out, maxChars);
      const space = clipped.lastIndexOf(" ");
      out = space > 0 ? clipped.slice(0, space) : clipped;
      cut = true;
      return false;
    }
    return true;
  };
  let i = 0;
  for (; i < limit; i++) {
    const ch = text[i] as string;
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

/**
 * A branch summary's own words: the stored summary without the preamble core/branch/finish.ts put
 * first (the card's heading says it). Any other text (an imported summary) as it is.
 */
export function branchSummaryBody(summary: string): string {
  const preamble = `${BRANCH_SUMMARY_PREAMBLE}\n\n`;
  return summary.startsWith(preamble) ? summary.slice(preamble.length) : summary;
}

/** The lower-cased terms of a search query; empty when there is nothing to look for. */
export function searchTerms(query: string | undefined): string[] {
  return (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}
