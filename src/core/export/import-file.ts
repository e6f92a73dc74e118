/**
 * One entry point for every importable file: sniff the format from the text, parse it once,
 * validate the whole of it, and check the result against size limits. Nothing is written until
 * this says ok (the caller's job), so a bad file never leaves half an import behind.
 *
 * Other apps' exports are read record by record: a conversation that cannot be read is skipped
 * (listed in `skipped` with its title and why) and the rest imported. A file with nothing
 * readable is refused, naming the format it was recognised as and what was wrong.
 */
import { formatBytes } from "../format-bytes";
import type { EntryId, SessionId } from "../session/ids";
import { isChatbotUiShaped, parseChatbotUiValue } from "./chatbot-ui";
import { parseChatGptValue } from "./chatgpt";
import type { ChatGptAssets } from "./chatgpt-content";
import { isClaudeShaped, parseClaudeValue } from "./claude";
import {
  type ExportedSession,
  GROVE_EXPORT_FORMAT,
  type ImportResult,
  parseGroveValue,
  parseJsonText,
} from "./grove-json";
import { importableFormatsInFull } from "./importable-formats";
import { checkJsonShape } from "./json-shape";
import { isLibreChatShaped, parseLibreChatValue } from "./librechat";
import { asRecord } from "./message-tree";
import { isOpenWebUiShaped, parseOpenWebUiValue } from "./open-webui";
import { parsePiJsonl } from "./pi/import";
import { describeSkipped, type SkippedRecord } from "./skipped";

export type ImportFormat = "grove-json" | "chatgpt" | "claude" | "open-webui" | "librechat" | "chatbot-ui" | "pi-jsonl";

/** Each format as a sentence names it, article included ("an Open WebUI export"). */
export const FORMAT_NAMES: Readonly<Record<ImportFormat, string>> = {
  "grove-json": "a Grove JSON",
  chatgpt: "a ChatGPT export",
  claude: "a Claude export",
  "open-webui": "an Open WebUI export",
  librechat: "a LibreChat export",
  "chatbot-ui": "a chatbot-ui export",
  "pi-jsonl": "a pi session",
};

/**
 * Beyond these a file is not a chat history but a mistake (or an attack on the tab's memory).
 * The byte limit is checked before reading; the others after parsing, before any write.
 */
export const IMPORT_LIMITS = {
  /** Below V8's longest string (~512 Mi characters): the file is parsed as one string. */
  maxFileBytes: 500 * 1024 * 1024,
  maxSessions: 100_000,
  maxEntriesPerSession: 1_000_000,
  maxTotalEntries: 5_000_000,
  /** characters in all of one entry's strings together: texts, tool arguments, nested data, keys */
  maxEntryChars: 20_000_000,
} as const;

/** `skipped`: the records left out of an import that goes ahead (a stub conversation, an empty one). */
export type ParsedImport =
  | { kind: "ok"; format: ImportFormat; sessions: ExportedSession[]; skipped: SkippedRecord[] }
  | { kind: "error"; message: string };

export type ImportIdOptions = {
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  now?: () => number;
  /** The images and files of a ChatGPT export .zip, stored already (db/transfer). */
  assets?: ChatGptAssets;
};

const KNOWN = `Grove imports ${importableFormatsInFull()}.`;

/** A Markdown file (Grove's own Markdown export among them) has no structure to import. */
const MARKDOWN_FILE = /\.(md|markdown|mdown|mkd)$/i;

/** The reason a file of `bytes` can't even be read, or null. */
export function checkFileSize(bytes: number): string | null {
  if (bytes === 0) return "The file is empty.";
  if (bytes > IMPORT_LIMITS.maxFileBytes) {
    return `The file is ${formatBytes(bytes)}; Grove imports files up to ${formatBytes(IMPORT_LIMITS.maxFileBytes)}.`;
  }
  return null;
}

export function parseImportFile(text: string, fileName: string, options: ImportIdOptions = {}): ParsedImport {
  const parsed = parseByFormat(text, fileName, options);
  if (parsed.kind === "error") return parsed;
  const nothing = nothingReadable(parsed);
  if (nothing) return { kind: "error", message: nothing };
  const tooBig = checkLimits(parsed.sessions);
  return tooBig ? { kind: "error", message: tooBig } : parsed;
}

/** A file whose every record was skipped is refused: the format it looked like, and why each failed. */
function nothingReadable(parsed: Extract<ParsedImport, { kind: "ok" }>): string | null {
  if (parsed.sessions.length > 0 || parsed.skipped.length === 0) return null;
  const n = parsed.skipped.length;
  const what =
    n === 1
      ? "its one conversation could not be read"
      : `none of its ${n.toLocaleString("en")} conversations could be read`;
  return `This looks like ${FORMAT_NAMES[parsed.format]}, but ${what} (${describeSkipped(parsed.skipped)}).`;
}

function parseByFormat(text: string, fileName: string, options: ImportIdOptions): ParsedImport {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") return { kind: "error", message: "The file is empty." };
  if (MARKDOWN_FILE.test(fileName) || looksLikeMarkdown(body)) {
    return { kind: "error", message: `Markdown can't be imported; ${KNOWN}` };
  }
  const badShape = checkJsonShape(body);
  if (badShape) return { kind: "error", message: badShape };
  if (looksLikePiSession(body)) return tagged("pi-jsonl", parsePiJsonl(body, options));
  if (/\.jsonl$/i.test(fileName)) {
    return {
      kind: "error",
      message: `${fileName} is not a pi session: its first line is not a session header ({"type":"session",…}). ${KNOWN}`,
    };
  }
  // The dialog names the file already ("Could not import x.json: …").
  const json = parseJsonText(body, null);
  if (!json.ok) return { kind: "error", message: json.message };
  const raw = json.value;
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw) && "format" in raw) {
    if (raw.format === GROVE_EXPORT_FORMAT) return tagged("grove-json", parseGroveValue(raw));
    return {
      kind: "error",
      message: `Unknown file format ${JSON.stringify(raw.format)}. ${KNOWN}`,
    };
  }
  if (isClaudeShaped(raw)) return tagged("claude", parseClaudeValue(raw, options));
  if (isChatGptShaped(raw)) return tagged("chatgpt", parseChatGptValue(raw, options));
  if (isOpenWebUiShaped(raw)) return tagged("open-webui", parseOpenWebUiValue(raw, options));
  if (isLibreChatShaped(raw)) return tagged("librechat", parseLibreChatValue(raw, options));
  if (isChatbotUiShaped(raw)) return tagged("chatbot-ui", parseChatbotUiValue(raw, options));
  return {
    kind: "error",
    message: `Unknown file format: ${fileName || "the file"} is JSON, but not one Grove knows. ${KNOWN}`,
  };
}

/**
 * Several files as one import (a split ChatGPT export, or files chosen together): each is parsed
 * and checked on its own, a failure names its file, and the sessions are merged and checked
 * against the limits together. The format shown is the first file's.
 */
export function parseImportFiles(
  files: readonly { name: string; text: string }[],
  options: ImportIdOptions = {},
): ParsedImport {
  const first = files[0];
  if (files.length === 1 && first) return parseImportFile(first.text, first.name, options);
  let format: ImportFormat | null = null;
  const sessions: ExportedSession[] = [];
  const skipped: SkippedRecord[] = [];
  for (const file of files) {
    const parsed = parseByFormat(file.text, file.name, options);
    if (parsed.kind === "error") return { kind: "error", message: `${file.name}: ${parsed.message}` };
    format ??= parsed.format;
    for (const s of parsed.sessions) sessions.push(s);
    for (const s of parsed.skipped) skipped.push(s);
  }
  if (!format) return { kind: "error", message: "No file was chosen." };
  const all: ParsedImport = { kind: "ok", format, sessions, skipped };
  const nothing = nothingReadable(all);
  if (nothing) return { kind: "error", message: nothing };
  const tooBig = checkLimits(sessions);
  return tooBig ? { kind: "error", message: tooBig } : all;
}

const tagged = (format: ImportFormat, result: ImportResult): ParsedImport =>
  result.kind === "ok"
    ? { kind: "ok", format, sessions: result.sessions, skipped: result.skipped ?? [] }
    : { kind: "error", message: result.message };

/**
 * Not JSON, and reads as Markdown: a heading, a front matter block, or a chat export's bold
 * speaker lines. Only the start is looked at.
 */
function looksLikeMarkdown(body: string): boolean {
  const start = body.trimStart().slice(0, 2000);
  if (start.startsWith("{") || start.startsWith("[")) return false;
  return /^(#{1,6} |---\n)/.test(start) || /^\*\*[^*\n]{1,40}\*\*/m.test(start);
}

/** pi files open with a one-line `session` header; only the first line is parsed to find out. */
function looksLikePiSession(text: string): boolean {
  const start = text.trimStart();
  if (!start.startsWith("{")) return false;
  const end = start.indexOf("\n");
  const firstLine = (end < 0 ? start : start.slice(0, end)).trim();
  // A header is a few hundred bytes; a long first line is a one-line JSON document, parsed later.
  if (firstLine.length > 64 * 1024) return false;
  try {
    const header: unknown = JSON.parse(firstLine);
    return header !== null && typeof header === "object" && (header as { type?: unknown }).type === "session";
  } catch {
    return false;
  }
}

/**
 * conversations.json is a list of conversations with a `mapping` (any of them: a stub without one
 * may come first); a single conversation object also works, and so does an empty list.
 */
function isChatGptShaped(raw: unknown): boolean {
  const hasMapping = (v: unknown) => asRecord(v)?.mapping !== undefined;
  if (Array.isArray(raw)) return raw.length === 0 || raw.some(hasMapping);
  return hasMapping(raw);
}

function checkLimits(sessions: readonly ExportedSession[]): string | null {
  const L = IMPORT_LIMITS;
  if (sessions.length > L.maxSessions) {
    return `The file holds ${sessions.length.toLocaleString("en")} chats; Grove imports up to ${L.maxSessions.toLocaleString("en")} at once.`;
  }
  let total = 0;
  for (const [i, s] of sessions.entries()) {
    const where = `Chat ${i + 1} ("${s.session.title}")`;
    total += s.entries.length;
    if (s.entries.length > L.maxEntriesPerSession) {
      return `${where} has ${s.entries.length.toLocaleString("en")} entries; the limit is ${L.maxEntriesPerSession.toLocaleString("en")}.`;
    }
    for (const [j, e] of s.entries.entries()) {
      const chars = entryChars(e, L.maxEntryChars);
      if (chars > L.maxEntryChars) {
        return `${where}, entry ${j + 1}: more than ${L.maxEntryChars.toLocaleString("en")} characters in one entry (text, tool arguments and data together), the limit.`;
      }
    }
  }
  if (total > L.maxTotalEntries) {
    return `The file holds ${total.toLocaleString("en")} entries; Grove imports up to ${L.maxTotalEntries.toLocaleString("en")} at once.`;
  }
  return null;
}

/**
 * Characters in every string of an entry, object keys included: text, thinking, tool arguments and
 * whatever nested data an entry carries (30M characters hidden in tool arguments once passed a
 * limit that counted only text blocks). Stops counting once past `limit`; the walk is iterative,
 * so no nesting can overflow the stack (json-shape.ts bounds the depth before parsing anyway).
 */
export function entryChars(entry: unknown, limit = Number.POSITIVE_INFINITY): number {
  let chars = 0;
  const stack: unknown[] = [entry];
  while (stack.length > 0 && chars <= limit) {
    const v = stack.pop();
    if (typeof v === "string") chars += v.length;
    else if (Array.isArray(v)) for (const item of v) stack.push(item);
    else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        chars += key.length;
        stack.push(item);
      }
    }
  }
  return chars;
}
