/**
 * Words for the search index, in one place for indexing and for queries (both must cut text the
 * same way, or a query never meets what was indexed).
 *
 * Most scripts separate words with spaces or punctuation: a word is a run of letters, marks and
 * digits. Chinese and Japanese do not: a run of Han, Hiragana or Katakana is cut into overlapping
 * character pairs (bigrams) plus its last character alone, so any two adjacent characters of a
 * query meet the same pair in the text, and a single character meets, as a prefix, the pair it
 * starts (or the last character). Pairs need no dictionary and cut a query exactly as they cut the
 * text; a dictionary segmenter (Intl.Segmenter) can cut the same words differently in a short query
 * than in a sentence. Thai, Lao, Khmer and Myanmar also write without spaces but have real word
 * boundaries, which Intl.Segmenter finds where the engine has it (else the run stays one word).
 * Pure: no I/O.
 */

/** Letters, combining marks, digits and the underscore (identifiers stay whole). */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
/** Scripts written without spaces: CJK (paired) and the South-East Asian ones (segmented). */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** A run of Han, Hiragana or Katakana (with the long-vowel mark ー), or a run of anything else. */
const CJK_OR_NOT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]+/gu;
const CJK_START = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]/u;
const SEGMENTED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** Longest term kept: longer runs are hashes, base64 or minified code, never typed into a search. */
export const MAX_TERM_LENGTH = 48;

/** Whether `term` is made of CJK characters (a pair or a single character). */
export function isCjkTerm(term: string): boolean {
  return CJK_START.test(term);
}

/** The pairs of a CJK run and its last character: "机器学习" → 机器 器学 学习 习. */
export function cjkGrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length <= 1) return chars;
  const out: string[] = [];
  for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!);
  out.push(chars[chars.length - 1]!);
  return out;
}

let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter =
      typeof Intl !== "undefined" && "Segmenter" in Intl
        ? new Intl.Segmenter(undefined, { granularity: "word" })
        : null;
  }
  return segmenter;
}

function pushUnspaced(word: string, out: string[]): void {
  for (const run of word.match(CJK_OR_NOT) ?? []) {
    if (CJK_START.test(run)) {
      for (const gram of cjkGrams(run)) out.push(gram);
    } else if (SEGMENTED.test(run) && wordSegmenter()) {
      for (const s of wordSegmenter()!.segment(run)) if (s.isWordLike) out.push(s.segment);
    } else {
      out.push(run);
    }
  }
}

/** The terms of `text`, in order, as written (lower-casing is the index's processTerm). */
export function tokenize(text: string): string[] {
  const words = text.match(WORD);
  if (!words) return [];
  // Nearly all text has no unspaced script: one test of the whole text skips the per-word work.
  if (!UNSPACED.test(text)) return words;
  const out: string[] = [];
  for (const word of words) {
    if (UNSPACED.test(word)) pushUnspaced(word, out);
    else out.push(word);
  }
  return out;
}

/** A term as indexed and searched: lower-cased; null (dropped) when too long to be a word anyone types. */
export function processTerm(term: string): string | null {
  return term.length > MAX_TERM_LENGTH ? null : term.toLowerCase();
}
