/**
 * Chat text (Markdown) made safe to open in any Markdown renderer with raw HTML on (marked,
 * commonmark.js, markdown-it, editors' previews), while staying readable Markdown.
 *
 * Safe means: no raw HTML, no link or image whose scheme is not http(s)/mailto/#, and no image at
 * all (a remote image is a beacon that can carry chat text in its URL; it becomes a plain link).
 *
 * The approach is "escape unless certainly code". A renderer and this module must agree on what
 * is code: where they might not, this module escapes (the cost is a visible `&lt;` inside code,
 * never live HTML). So:
 * - Fenced code blocks are found by CommonMark's rules and re-emitted at column 0 with a fence
 *   longer than any backtick run inside and blank lines around: every renderer then sees the same
 *   block, whatever list, table or quote the original fence sat in. Indented code is not trusted
 *   (an indented line may be a paragraph's continuation, where HTML is live): it is escaped.
 * - Inline code spans are paired per line by CommonMark's rules (backslash-escaped backticks
 *   open nothing). A line with a backtick run left unpaired, a span holding `|` (a GFM table
 *   splits cells before it pairs backticks), or a bare URL holding a backtick (marked's GFM
 *   autolink swallows it) makes the rest of the paragraph uncertain: escaped.
 * - Outside code: `<` → `&lt;` (an escaped `\<` too: a GFM bare URL before it swallows the
 *   backslash in marked); `](` keeps its link only when the destination is a plain
 *   http(s)/mailto/# URL on that line, else the `]` is escaped (no link); a line-leading `[` that
 *   could open a reference definition (`[x]: javascript:…`, block-level, blind to code spans) is
 *   escaped; `![` becomes `Image: [` (a link); `ftp://` loses its GFM autolink.
 * Entity- or escape-encoded schemes (`&#106;avascript:`, `jav&#x09;ascript:`, `javascript\:`)
 * need no decoding: only a destination that literally starts with an allowed scheme is kept.
 */

import { fenceFor } from "../markdown-fence";

const FENCE_LINE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** Chat Markdown → Markdown with no live HTML, no unsafe link scheme and no image. */
export function inertMarkdown(text: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  const flushProse = () => {
    if (prose.length > 0) out.push(inertProse(prose));
    prose = [];
  };
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_LINE.exec(lines[i] ?? "");
    const fence = open?.[2] ?? "";
    const info = open?.[3] ?? "";
    // A backtick fence's info string may not contain backticks (that line is inline code instead).
    if (!open || (fence.startsWith("`") && info.includes("`"))) {
      prose.push(lines[i] ?? "");
      continue;
    }
    const indent = open[1]?.length ?? 0;
    const body: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i] ?? "";
      const close = FENCE_LINE.exec(line);
      if (close && close[2]?.[0] === fence[0] && (close[2]?.length ?? 0) >= fence.length && !close[3]?.trim()) break;
      body.push(stripIndent(line, indent));
    }
    flushProse();
    out.push(codeFence(body.join("\n"), info.trim().split(/\s/)[0] ?? ""));
  }
  flushProse();
  return out.filter((b) => b.trim() !== "").join("\n\n");
}

/** A fenced block every renderer reads alike: longer fence than any run inside, a plain language tag. */
export function codeFence(body: string, lang: string): string {
  const fence = fenceFor(body);
  const tag = lang.replace(/[^\w+#.-]/g, "");
  return `${fence}${tag}\n${body.replace(/\s+$/, "")}\n${fence}`;
}

/** CommonMark strips up to the opening fence's indentation from each content line. */
function stripIndent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && line[n] === " ") n++;
  return line.slice(n);
}

/** Container markers (quotes, list items) and indentation before a line's content. */
const LINE_PREFIX = /^(?:[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)))*[ \t]*/;

function inertProse(lines: readonly string[]): string {
  const source = lines.join("\n");
  const out: string[] = [];
  let uncertain = false;
  let offset = 0;
  for (const line of lines) {
    const start = offset;
    offset += line.length + 1;
    if (line.trim() === "") {
      uncertain = false;
      out.push(line);
      continue;
    }
    const prefix = LINE_PREFIX.exec(line)?.[0] ?? "";
    let rest = line.slice(prefix.length);
    if (rest.startsWith("[") && mayOpenDefinition(source, start + prefix.length + 1)) rest = `\\${rest}`;
    const inline = inertInline(rest, uncertain);
    uncertain = inline.uncertain;
    out.push(prefix + inline.text);
  }
  return out.join("\n");
}

/**
 * Whether the `[` just before `from` may open a link reference definition: its label (no
 * unescaped brackets, no blank line) closes with `]` followed by `:`. In doubt, yes.
 */
function mayOpenDefinition(source: string, from: number): boolean {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") return false;
    else if (c === "]") return source[i + 1] === ":";
    else if (c === "\n" && /^[ \t]*(\n|$)/.test(source.slice(i + 1, i + 3))) return false;
  }
  return true;
}

/** One line's inline content: code spans kept (when certain), everything else made inert. */
function inertInline(line: string, uncertainBefore: boolean): { text: string; uncertain: boolean } {
  if (uncertainBefore || BARE_URL_WITH_BACKTICK.test(line)) return { text: inertText(line), uncertain: true };
  let out = "";
  let at = 0;
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c !== "`") {
      i++;
      continue;
    }
    const n = runLength(line, i);
    const close = closingRun(line, i + n, n);
    const span = close < 0 ? "" : line.slice(i, close + n);
    if (close < 0 || span.includes("|")) {
      // The renderer may pair these backticks elsewhere (a later line, a table cell): escape the rest.
      return { text: out + inertText(line.slice(at)), uncertain: true };
    }
    out += inertText(line.slice(at, i)) + span;
    i = close + n;
    at = i;
  }
  return { text: out + inertText(line.slice(at)), uncertain: false };
}

function runLength(line: string, from: number): number {
  let n = 0;
  while (line[from + n] === "`") n++;
  return n;
}

/** Start of the next backtick run of exactly `n` (backslashes do not escape inside code), or -1. */
function closingRun(line: string, from: number, n: number): number {
  let i = from;
  while (i < line.length) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    const len = runLength(line, i);
    if (len === n) return i;
    i += len;
  }
  return -1;
}

/**
 * A GFM bare URL (marked links them) runs over backticks, where CommonMark renderers see a code
 * span opening instead: renderers disagree on that line, so it is not certain.
 */
const BARE_URL_WITH_BACKTICK = /(?:https?:\/\/|ftp:\/\/|www\.)[^\s<]*`/i;

/** A link destination that may stay: a plain http(s)/mailto/# URL, optional "title", on this line. */
const SAFE_DESTINATION =
  /\(\s*(?:https?:\/\/|mailto:|#)[^\s()<>\\`]*(?:\([^\s()<>\\`]*\)[^\s()<>\\`]*)*(?:\s+"[^"<>\\`]*")?\s*\)/iy;

/** Text outside code: no HTML, links only to safe destinations, images as links. */
function inertText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && text[i + 1] === "<") {
      // Not `\<`: marked's GFM bare-URL autolink swallows the backslash (`www.x.example/\<b>` left a
      // live tag), so an escaped `<` is written as the entity, which means the same with or without it.
      out += "&lt;";
      i++;
    } else if (c === "\\") {
      out += text.slice(i, i + 2);
      i++;
    } else if (c === "<") {
      out += "&lt;";
    } else if (c === "]" && text[i + 1] === "(") {
      SAFE_DESTINATION.lastIndex = i + 1;
      const dest = SAFE_DESTINATION.exec(text);
      if (dest) {
        out += `]${dest[0]}`;
        i += dest[0].length;
      } else {
        out += "\\]";
      }
    } else if (c === "!" && text[i + 1] === "[") {
      out += "Image: ";
    } else if ((c === "f" || c === "F") && /^ftp:\/\//i.test(text.slice(i, i + 6))) {
      out += `${text.slice(i, i + 3)}\\:`;
      i += 3;
    } else {
      out += c;
    }
  }
  return out;
}
