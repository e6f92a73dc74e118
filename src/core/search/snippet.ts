/**
 * A search hit's snippet: a window of the entry's text around the first place a matched term
 * occurs, cut into plain and highlighted pieces (the UI wraps the highlighted ones in <mark>).
 * Pure: no I/O.
 */
import { isCjkTerm } from "./tokenize";

export type SnippetPart = { text: string; hit: boolean };

/** Characters of context before the first hit, and the window's whole length. */
const BEFORE = 50;
const LENGTH = 180;

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;

/**
 * `text` lower-cased with the same length, so offsets found in it are offsets in `text` (a few
 * characters, like "İ", lower-case to two: those stay as they are).
 */
function lowerSameLength(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return text.replace(/[\s\S]/gu, (c) => {
    const l = c.toLowerCase();
    return l.length === c.length ? l : c;
  });
}

/** [start, end) of every occurrence of `term` in `lower` that starts a word (CJK terms: anywhere). */
function occurrences(lower: string, term: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (!term) return out;
  const anywhere = isCjkTerm(term);
  let at = lower.indexOf(term, from);
  while (at >= 0 && at < to) {
    if (anywhere || at === 0 || !WORD_CHAR.test(lower[at - 1]!)) out.push([at, at + term.length]);
    at = lower.indexOf(term, at + term.length);
  }
  return out;
}

/** Runs of whitespace (newlines too) shown as one space. */
const squash = (s: string) => s.replace(/\s+/g, " ");

/**
 * The snippet of `text` for the matched `terms` (index terms, lower-case): the window starts a
 * little before the first occurrence (at a word boundary), ellipses mark cut ends, every
 * occurrence inside the window is a hit. With no occurrence (a fuzzy match of a word written
 * differently), the start of the text, unhighlighted.
 */
export function buildSnippet(text: string, terms: readonly string[]): SnippetPart[] {
  const lower = lowerSameLength(text);
  let first = -1;
  for (const term of terms) {
    const found = occurrences(lower, term, 0, lower.length)[0];
    if (found && (first < 0 || found[0] < first)) first = found[0];
  }
  let start = first <= BEFORE ? 0 : first - BEFORE;
  if (start > 0) {
    const space = text.lastIndexOf(" ", start + 10);
    if (space > start - 20 && space < first) start = space + 1;
  }
  const end = Math.min(text.length, start + LENGTH);
  const ranges = terms
    .flatMap((t) => occurrences(lower, t, Math.max(0, start - MAX_TERM), end))
    .map(([a, b]): [number, number] => [Math.max(a, start), Math.min(b, end)])
    .filter(([a, b]) => a < b)
    .sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  const parts: SnippetPart[] = [];
  const push = (s: string, hit: boolean) => {
    if (!s) return;
    const last = parts[parts.length - 1];
    if (last && last.hit === hit) last.text += s;
    else parts.push({ text: s, hit });
  };
  if (start > 0) push("…", false);
  let at = start;
  for (const [a, b] of ranges) {
    if (b <= at) continue;
    push(squash(text.slice(at, Math.max(at, a))), false);
    push(squash(text.slice(Math.max(at, a), b)), true);
    at = b;
  }
  push(squash(text.slice(at, end)), false);
  if (end < text.length) push("…", false);
  if (parts[0] && !parts[0].hit) parts[0].text = parts[0].text.trimStart();
  return parts;
}

/** How far back an occurrence may start and still reach into the window. */
const MAX_TERM = 64;
