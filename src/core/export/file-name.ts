/**
 * Export file names, one rule for every export (a chat as Grove JSON, Markdown, HTML or pi JSONL, and
 * "Export all"): `<title> <YYYY-MM-DD><extension>`, e.g. `Alps trip 2026-11-28.md`. The title part is
 * safe on every OS:
 * - no `/ \ : * ? " < > |` (Windows; `/` everywhere), no control characters; invisible characters
 *   are dropped (bidi controls that make `txt.exe` read as `exe.txt`, zero-width spaces, BOMs), but
 *   not the joiners that build emoji and Persian words;
 * - whitespace collapsed to one space (spaces, not hyphens: the name reads like the chat's title, and
 *   every OS and browser keeps them);
 * - no leading dots (hidden on Unix) and no trailing dots or spaces (Windows drops them);
 * - Windows' reserved device names (`CON`, `NUL`, `COM1`, …, also before an extension) get a `_` first;
 * - at most 80 characters and 160 UTF-8 bytes, cut between graphemes (an emoji is never split), so the
 *   whole name stays far below the 255-byte limit of common file systems;
 * - nothing left: `chat`.
 * The date is the export's day in the user's time zone. Pure.
 */

import { utf8Length } from "../utf8-length";

export type ExportFormat = "grove-json" | "markdown" | "html" | "pi-jsonl";

const EXTENSIONS: Record<ExportFormat, string> = {
  "grove-json": ".grove.json",
  markdown: ".md",
  html: ".html",
  "pi-jsonl": ".jsonl",
};

const MAX_BASE_CHARS = 80;
const MAX_BASE_BYTES = 160;
const FALLBACK_BASE = "chat";
/** "Export all" names its file for what it holds. */
export const ALL_CHATS_BASE = "Grove chats";

const WINDOWS_FORBIDDEN = /[\\/:*?"<>|]/g;
/** Bidi controls, zero-width spaces, word joiners, invisible operators, BOM, soft hyphen. */
const INVISIBLE = /[\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/gu;
const RESERVED_WINDOWS_NAME = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9]|lpt[0-9])$/i;

const graphemes: Intl.Segmenter | null =
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
    : null;

/** `title` as the file-name-safe part of an export's name (rules above). */
export function fileBaseName(title: string): string {
  const clean = title
    .normalize("NFKC") // fullwidth "／" and "：" become the characters the next line replaces
    .replace(WINDOWS_FORBIDDEN, " ")
    .replace(/\p{Cc}/gu, " ")
    .replace(INVISIBLE, "")
    .replace(/\s+/gu, " ")
    .replace(/^[.\s]+/u, "");
  const cut = withinLimits(clean).replace(/[.\s]+$/u, "");
  if (cut === "") return FALLBACK_BASE;
  const stem = cut.split(".")[0]?.trim() ?? "";
  return RESERVED_WINDOWS_NAME.test(stem) ? `_${cut}` : cut;
}

/** The export's whole file name: the title's safe form, the day, the format's extension. */
export function exportFileName(title: string, format: ExportFormat, now: number): string {
  return `${fileBaseName(title)} ${exportDay(now)}${EXTENSIONS[format]}`;
}

/** "2026-11-28": the day of `now` in the user's time zone. */
export function exportDay(now: number): string {
  const d = new Date(now);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The longest prefix of whole graphemes within the character and byte limits. */
function withinLimits(text: string): string {
  const parts = graphemes ? Array.from(graphemes.segment(text), (s) => s.segment) : Array.from(text);
  let out = "";
  let chars = 0;
  let bytes = 0;
  for (const part of parts) {
    const partChars = Array.from(part).length;
    const partBytes = utf8Length(part);
    if (chars + partChars > MAX_BASE_CHARS || bytes + partBytes > MAX_BASE_BYTES) break;
    out += part;
    chars += partChars;
    bytes += partBytes;
  }
  return out;
}
