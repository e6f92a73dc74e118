/**
 * The verbatim tail anchor (DESIGN §4.4): the last assistant text of the folded region, spliced
 * into the stored summary as `<verbatim_tail>…</verbatim_tail>` so the model's own latest words
 * ("next I will…") survive a compaction whatever the summarizer wrote.
 *
 * - At most `TAIL_MAX_CHARS` characters, marker included. A longer text is clamped from the START
 *   with `[...truncated]`, so its end (where next steps land) survives; the cut moves forward to a
 *   grapheme boundary (never inside a surrogate pair, a combining sequence or an emoji sequence).
 * - Tail tags inside the text are escaped, so the block can always be found and replaced.
 * - `spliceTail` removes every previous tail block (and stray tail tags) before appending the new
 *   one: tails are replaced, never stacked.
 *
 * Pure: no I/O, no token counting.
 */

import type { Block, Entry } from "../session/entries";
import { visibleText } from "../session/entry-text";
import { continuationJoins, isSkippedMessage } from "../session/plan-context";

export const TAIL_MAX_CHARS = 1_500;
export const TAIL_TRUNCATED_MARKER = "[...truncated]";
const TAIL_OPEN = "<verbatim_tail>";
const TAIL_CLOSE = "</verbatim_tail>";

const TAIL_BLOCK = /<verbatim_tail\b[^<>]*>[\s\S]*?<\/verbatim_tail\s*>/gi;
const TAIL_TAG = /<(\/?)verbatim_tail\b([^<>]*)>/gi;

/** Some runtimes lack Intl.Segmenter; then only surrogate pairs are protected. */
const graphemes: Intl.Segmenter | null =
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(undefined, { granularity: "grapheme" })
    : null;

/** How far before a cut the grapheme segmenter starts looking, in UTF-16 units. */
const GRAPHEME_LOOKBACK = 64;

/** The first index ≥ `at` where a character (grapheme cluster when possible) starts. */
function graphemeStartAtOrAfter(text: string, at: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  if (graphemes) {
    const from = Math.max(0, at - GRAPHEME_LOOKBACK);
    for (const seg of graphemes.segment(text.slice(from, at + GRAPHEME_LOOKBACK))) {
      if (from + seg.index >= at) return from + seg.index;
    }
  }
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

/** Escapes tail tags inside text that goes into a tail block. */
function escapeTailTags(text: string): string {
  return text.replace(TAIL_TAG, (_w, slash: string, rest: string) => `&lt;${slash}verbatim_tail${rest}&gt;`);
}

/**
 * `text` trimmed and clamped to `max` characters from the start: `[...truncated]` and a newline,
 * then the end of the text, starting at a character boundary.
 */
export function clampTail(text: string, max: number = TAIL_MAX_CHARS): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const keep = Math.max(0, max - TAIL_TRUNCATED_MARKER.length - 1);
  const start = graphemeStartAtOrAfter(t, t.length - keep);
  return `${TAIL_TRUNCATED_MARKER}\n${t.slice(start).trimStart()}`;
}

/** The tail for a text: tail tags escaped, then clamped. */
export function makeTail(text: string): string {
  return clampTail(escapeTailTags(text));
}

/**
 * The last assistant text of `entries` (text blocks only; tool-only, blank and skipped replies are
 * passed over), with the replies it continues ("Continue" after a length stop) joined before it.
 * Null if there is none.
 */
export function lastAssistantText(entries: readonly Entry[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.type !== "message" || e.role !== "assistant" || isSkippedMessage(e)) continue;
    if (visibleText(e.content) === "") continue;
    // The run of replies it is joined to, as the context plan joins them.
    const joins = continuationJoins(entries);
    const head = joins.get(e.id) ?? e.id;
    let joined = "";
    for (let k = 0; k <= i; k++) {
      const x = entries[k];
      if (x?.type === "message" && (x.id === head || joins.get(x.id) === head)) joined += rawText(x.content);
    }
    return joined.trim();
  }
  return null;
}

/** Text blocks joined as `buildContext` joins a continuation: untrimmed, so the text flows on. */
function rawText(content: readonly Block[]): string {
  return content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
}

/** `summary` without any tail block or stray tail tag, trailing whitespace removed. */
export function stripTail(summary: string): string {
  return summary.replace(TAIL_BLOCK, "").replace(TAIL_TAG, "").trimEnd();
}

/** The content of the last tail block in `summary`, or null. */
export function extractTail(summary: string): string | null {
  let last: string | null = null;
  for (const m of summary.matchAll(TAIL_BLOCK)) last = m[0];
  if (last === null) return null;
  const inner = last.replace(/^<verbatim_tail\b[^<>]*>/i, "").replace(/<\/verbatim_tail\s*>$/i, "");
  return inner.replace(/^\n/, "").replace(/\n$/, "");
}

/** `summary` with its tail replaced by `tail` (already made with `makeTail`); no tail block if null or blank. */
export function spliceTail(summary: string, tail: string | null): string {
  const base = stripTail(summary);
  if (tail === null || tail.trim() === "") return base;
  const block = `${TAIL_OPEN}\n${tail}\n${TAIL_CLOSE}`;
  return base === "" ? block : `${base}\n\n${block}`;
}
