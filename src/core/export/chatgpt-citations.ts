/**
 * ChatGPT's citation markers in a reply's text, made readable. Three generations of them:
 * - `【6†source】`, `【3:0†source】`, `【888763680814013†L21-L40】` (browsing, 2023-2024), with the
 *   sources in `metadata.citations` (`start_ix`/`end_ix` into the text, `metadata.title`/`url`);
 * - private-use markers (2025-): U+E200 `cite` U+E202 `turn0search3` U+E202 … U+E201, and the
 *   `filecite`, `navlist`, `entity`, `image_group`… variants, with the sources in
 *   `metadata.content_references` (`matched_text` = the marker, `items` = `{title, url}`).
 * A marker whose sources the file names becomes GFM footnote references (`[^1]`) with a
 * definitions list at the end ("1. [Title](url) — site"), numbered by first use and shared by
 * repeated sources; an entity marker becomes its name; every other marker is removed, with the
 * space before it. Only http(s) URLs are linked. Pure: text in, text out.
 */
import { asRecord, str } from "./message-tree";

type Source = { title: string; url: string | null; site: string | null };

/** A span of the text to replace: by footnote references to `sources`, or by `text` (Markdown, made here). */
type Span = { start: number; end: number; sources?: Source[]; text?: string };

const OPEN = "\uE200";
const SEP = "\uE202";
const CLOSE = "\uE201";
/** A whole private-use marker; an unclosed one ends at the end of its line. */
const PRIVATE_MARKER = /([ \t]*)\uE200([a-z_]+)\uE202([^\uE200\uE201\n]*)(?:\uE201|(?=\n|$))/g;
/** `【…†…】`: the legacy browsing marker, short and on one line (with the space before it). */
const LEGACY_MARKER = /[ \t]*【[^【】\n]{1,80}†[^【】\n]{0,200}】/g;
/** Reference types whose items are sources (web pages, a page a link came from, a news list). */
const SOURCE_TYPES = new Set([
  "grouped_webpages",
  "grouped_webpages_model_predicted_fallback",
  "webpage",
  "webpage_extended",
  "url",
  "file",
]);
/** Reference types whose `alt` is the words to show in place of the marker (a named entity). */
const ALT_TYPES = new Set(["alt_text", "entity", "product_entity"]);

/** Whether `text` may hold a marker: the cheap test that keeps plain replies on the fast path. */
export function mayHaveCitations(text: string): boolean {
  return text.includes(OPEN) || text.includes("†");
}

/** The reply's text with its citation markers resolved against its `metadata`. */
export function resolveCitations(text: string, metadata: Record<string, unknown> | undefined): string {
  const spans = [...referenceSpans(text, metadata?.content_references), ...legacySpans(text, metadata?.citations)];
  if (spans.length === 0 && !mayHaveCitations(text)) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const numbers = new Map<string, number>();
  const notes: string[] = [];
  const label = text.includes("[^") ? (n: number) => `cite-${n}` : (n: number) => String(n);
  let out = "";
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue; // overlaps one already placed
    out += stripMarkers(text.slice(at, span.start), span.text === undefined || span.text === "");
    if (span.sources) {
      for (const source of span.sources) {
        const key = source.url ?? `title:${source.title}`;
        let n = numbers.get(key);
        if (n === undefined) {
          n = numbers.size + 1;
          numbers.set(key, n);
          notes.push(`[^${label(n)}]: ${footnote(source)}`);
        }
        out += `[^${label(n)}]`;
      }
    } else {
      out += span.text ?? "";
    }
    at = span.end;
  }
  out += stripMarkers(text.slice(at), false);
  return notes.length === 0 ? out : `${out.trimEnd()}\n\n${notes.join("\n")}`;
}

/** Spans of the private-use markers named by `content_references`, found by their text. */
function referenceSpans(text: string, refs: unknown): Span[] {
  if (!Array.isArray(refs) || refs.length === 0) return [];
  const spans: Span[] = [];
  let from = 0;
  for (const raw of refs) {
    const ref = asRecord(raw);
    const matched = str(ref?.matched_text);
    const type = str(ref?.type);
    if (!ref || !matched || matched.trim() === "" || !type) continue;
    // Indices count code points (Python); the marker's own text is the reliable anchor.
    let start = text.indexOf(matched, from);
    if (start < 0) start = text.indexOf(matched);
    if (start < 0) continue;
    from = start + matched.length;
    const span: Span = { start, end: start + matched.length };
    if (type === "navlist") {
      span.text = navList(ref, matched);
    } else if (SOURCE_TYPES.has(type)) {
      const sources = referenceSources(ref);
      if (sources.length > 0) span.sources = sources;
      else span.text = "";
    } else if (ALT_TYPES.has(type)) {
      span.text = plainAlt(ref.alt) ?? entityName(matched) ?? "";
    } else {
      span.text = "";
    }
    spans.push(span);
  }
  return spans;
}

/** A web source needs its URL; a file (`filecite`) is named by the reference itself, with no URL. */
function referenceSources(ref: Record<string, unknown>): Source[] {
  if (ref.type === "file") {
    const source = toSource(ref.name ?? ref.title, null, null);
    return source ? [source] : [];
  }
  const out: Source[] = [];
  for (const item of itemsOf(ref)) {
    const source = safeUrl(str(item.url)) ? toSource(item.title ?? item.name, item.url, item.attribution) : null;
    if (source) out.push(source);
  }
  return out;
}

const itemsOf = (ref: Record<string, unknown>): Record<string, unknown>[] =>
  (Array.isArray(ref.items) ? ref.items : []).map(asRecord).filter((i) => i !== undefined);

/** A `navlist` (a list of news items) is a list of links where it stood, under its title. */
function navList(ref: Record<string, unknown>, matched: string): string {
  const lines: string[] = [];
  for (const item of itemsOf(ref)) {
    const source = safeUrl(str(item.url)) ? toSource(item.title, item.url, item.attribution) : null;
    if (source) lines.push(`- ${footnote(source)}`);
  }
  if (lines.length === 0) return "";
  const title = oneLine(str(ref.title) ?? matched.split(SEP)[1]);
  return `${title ? `${literal(title)}:\n\n` : ""}${lines.join("\n")}`;
}

/** `metadata.citations` spans (`start_ix`/`end_ix` in code points) that cover a marker. */
function legacySpans(text: string, citations: unknown): Span[] {
  if (!Array.isArray(citations) || citations.length === 0) return [];
  const units = codePointOffsets(text);
  const spans: Span[] = [];
  for (const raw of citations) {
    const c = asRecord(raw);
    const meta = asRecord(c?.metadata);
    const startIx = c?.start_ix;
    const endIx = c?.end_ix;
    if (!c || typeof startIx !== "number" || typeof endIx !== "number" || endIx <= startIx) continue;
    const start = units(startIx);
    const end = units(endIx);
    if (start === undefined || end === undefined) continue;
    const marker = text.slice(start, end);
    if (!marker.startsWith("【") && !marker.startsWith(OPEN)) continue;
    // A web citation is its page: without a URL (a search results pseudo-page) it is dropped.
    const source = meta && safeUrl(str(meta.url)) ? toSource(meta.title, meta.url, null) : null;
    spans.push(source ? { start, end, sources: [source] } : { start, end, text: "" });
  }
  return spans;
}

/** Maps a code-point offset to a UTF-16 offset (the same unless the text holds astral characters). */
function codePointOffsets(text: string): (cp: number) => number | undefined {
  if (!/[\uD800-\uDBFF]/.test(text))
    return (cp) => (Number.isInteger(cp) && cp >= 0 && cp <= text.length ? cp : undefined);
  const offsets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    offsets.push(i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
  }
  offsets.push(text.length);
  return (cp) => (Number.isInteger(cp) ? offsets[cp] : undefined);
}

function toSource(title: unknown, url: unknown, site: unknown): Source | null {
  const href = safeUrl(str(url));
  const name = oneLine(str(title)) || (href ? hostOf(href) : "");
  if (name === "" && href === null) return null;
  const attribution = oneLine(str(site));
  return { title: name, url: href, site: attribution !== "" && attribution !== name ? attribution : null };
}

/** Only absolute http(s) URLs become links; ChatGPT's own tracking parameter is dropped. */
function safeUrl(url: string | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.searchParams.get("utm_source") === "chatgpt.com") parsed.searchParams.delete("utm_source");
  return parsed.href;
}

const hostOf = (href: string): string => new URL(href).hostname.replace(/^www\./, "");

const oneLine = (s: string | undefined): string => (s ?? "").replace(/\s+/g, " ").trim();

/** Markdown that shows `s` as written: every character Markdown or HTML could read as syntax is escaped. */
function literal(s: string): string {
  return s.replace(/[\\`*_[\]<>~&]/g, "\\$&");
}

const percentEncode = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** A source as Markdown: the title as a link to its URL, then the site. */
function footnote(s: Source): string {
  const title = literal(s.title || (s.url ? hostOf(s.url) : ""));
  // A plain destination every renderer reads alike (the Markdown export's check included).
  const link = s.url ? `[${title}](${s.url.replace(/[()<>\s\\`]/g, percentEncode)})` : title;
  return s.site ? `${link} — ${literal(s.site)}` : link;
}

/** An entity marker's `alt`: plain words only (a link or markup in it is not trusted to be a name). */
function plainAlt(alt: unknown): string | undefined {
  const text = str(alt);
  return text !== undefined && text.trim() !== "" && !/[[\]()<>`]/.test(text) ? text : undefined;
}

/** `entity["kind", "Name", 0]` (the marker's arguments are JSON) → "Name". */
function entityName(marker: string): string | undefined {
  const args = marker.split(SEP)[1]?.replace(CLOSE, "");
  if (!args) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && typeof parsed[1] === "string" ? parsed[1] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes the markers no source was found for, with the space before each (an entity keeps its
 * name). `beforeSpan`: a footnote or a removed marker follows the piece, so its trailing space goes.
 */
function stripMarkers(piece: string, beforeSpan: boolean): string {
  let out = piece;
  if (out.includes(OPEN)) {
    out = out.replace(PRIVATE_MARKER, (_m, space: string, kind: string, args: string) =>
      kind === "entity" ? space + (entityName(`${kind}${SEP}${args}`) ?? "") : "",
    );
  }
  if (out.includes("†")) out = out.replace(LEGACY_MARKER, "");
  return beforeSpan ? out.replace(/[ \t]+$/, "") : out;
}
