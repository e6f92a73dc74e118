/**
 * Linear-time token counting with js-tiktoken: the guard against its quadratic merge.
 *
 * Why: tiktoken first splits text with its encoding's regex into "pre-tokens" (words, number
 * groups, punctuation runs, whitespace runs), then byte-pair-merges each pre-token. js-tiktoken's
 * merge rescans and re-joins the whole pre-token on every merge step, so one pre-token of n bytes
 * costs O(n²) or worse. Space-separated prose has short pre-tokens, but a CJK or Thai clause is
 * one pre-token up to the next punctuation, and a paste without punctuation is one pre-token
 * however long: o200k takes 1.5 s for 2,000 unbroken CJK characters, 8.8 s for 5,000, 38 s for
 * 10,000.
 *
 * How: run the encoding's own regex, encode everything between long pre-tokens as one string (so
 * ordinary text is counted exactly as `encode` would), and count each pre-token longer than
 * `MAX_PIECE_BYTES` in pieces of at most that many UTF-8 bytes, always on code-point boundaries.
 * A naive cut costs about half a token per cut (a token that would have spanned the cut becomes
 * two): ~1% on unbroken Japanese at 64-character pieces, ~2% at 16. So each cut is moved to a
 * real token boundary: encode the piece plus `CUT_LOOKAHEAD_CODE_POINTS` more, keep the tokens
 * that end at or before the nominal cut, and start the next piece where they end. BPE merges are
 * local, so a boundary that far from the artificial end is almost always a boundary of the whole
 * run too. Against an exact reference (bounded-count.test.ts), 20,000-character unbroken Chinese,
 * Japanese, Korean, Thai, random-CJK, emoji and "-" runs counted exactly in both encodings; a run
 * of 20,000 "=" was one token over in o200k. The known miss: cl100k has a token for nearly every
 * length of a run of spaces, so very long space runs count about one token per 64 spaces instead
 * of per 128 (20,000 spaces: 313 tokens, exactly 158); an overcount, and only past 32 spaces.
 *
 * Cost: every byte of a long run is encoded about (MAX_PIECE_BYTES + lookahead) / MAX_PIECE_BYTES
 * times in pieces of bounded size, so time is linear in the run's length.
 * Pure: no I/O, no state beyond the arguments.
 */

/** The part of js-tiktoken's `Tiktoken` this module uses. */
export interface TiktokenLike {
  encode(text: string, allowedSpecial?: string[] | "all", disallowedSpecial?: string[] | "all"): number[];
  decode(tokens: number[]): string;
}

/**
 * Longest pre-token, in UTF-8 bytes, encoded whole; longer ones are counted in pieces this size.
 * 32 bytes = 10 CJK characters, 32 ASCII letters, 8 emoji: above nearly every word, cheap to merge
 * (an unbroken 20,000-character CJK run takes ~0.3 s in Node; 64 bytes took ~0.6 s, and exactness
 * was the same). A power of two, so runs of one repeated character (whose tokens are 2ⁿ characters
 * long) are cut where the whole run's tokens end.
 */
export const MAX_PIECE_BYTES = 32;

/**
 * When a single token covers a piece up to its cut, the piece doubles, up to this size in bytes,
 * before it is cut: twice the longest token in either vocabulary (128 bytes: a run of spaces, "-"
 * or "="), so such runs are cut where the whole run's tokens end.
 */
const MAX_GROWN_PIECE_BYTES = 256;

/** Code points encoded past a nominal cut so that the cut can move back to a real token boundary. */
const CUT_LOOKAHEAD_CODE_POINTS = 6;

const NO_SPECIAL: string[] = [];

/**
 * Tokens in `text`, special-token strings counted as plain text (as providers treat user text).
 * `pattern` is the encoding's pre-tokenizer regex (`pat_str`) with flags "gu".
 */
export function countInBoundedPieces(tiktoken: TiktokenLike, pattern: RegExp, text: string): number {
  let total = 0;
  let pending = 0; // start of the text not yet counted
  for (const match of text.matchAll(pattern)) {
    const piece = match[0];
    if (!isLong(piece)) continue;
    total += encodedLength(tiktoken, text.slice(pending, match.index)) + countLongPiece(tiktoken, piece);
    pending = match.index + piece.length;
  }
  return total + encodedLength(tiktoken, text.slice(pending));
}

function encodedLength(tiktoken: TiktokenLike, text: string): number {
  return text === "" ? 0 : tiktoken.encode(text, NO_SPECIAL, NO_SPECIAL).length;
}

/** A UTF-16 code unit is at most 3 UTF-8 bytes, so short strings skip the exact byte count. */
function isLong(piece: string): boolean {
  if (piece.length * 3 <= MAX_PIECE_BYTES) return false;
  return utf8Length(piece, 0, piece.length) > MAX_PIECE_BYTES;
}

function utf8Length(s: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (unitsAt(s, i) === 2 && i + 1 < to) {
      bytes += 4; // a surrogate pair: one 4-byte code point
      i++;
    } else bytes += 3; // the rest of the BMP; a lone surrogate is encoded as U+FFFD, 3 bytes too
  }
  return bytes;
}

/** UTF-16 length of the code point at `i` (2 for a surrogate pair). */
function unitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return 1;
  const next = s.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** End (UTF-16 index) of the longest run from `from` of at most `maxBytes` bytes; at least one code point. */
function advanceBytes(s: string, from: number, maxBytes: number): number {
  let i = from;
  let bytes = 0;
  while (i < s.length) {
    const units = unitsAt(s, i);
    const size = utf8Length(s, i, i + units);
    if (bytes + size > maxBytes && i > from) break;
    bytes += size;
    i += units;
  }
  return i;
}

function advanceCodePoints(s: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count && i < s.length; n++) i += unitsAt(s, i);
  return i;
}

function countLongPiece(tiktoken: TiktokenLike, piece: string): number {
  let total = 0;
  let start = 0;
  let size = MAX_PIECE_BYTES;
  while (start < piece.length) {
    const cut = advanceBytes(piece, start, size);
    if (cut >= piece.length) return total + encodedLength(tiktoken, piece.slice(start));
    const end = advanceCodePoints(piece, cut, CUT_LOOKAHEAD_CODE_POINTS);
    const tokens = tiktoken.encode(piece.slice(start, end), NO_SPECIAL, NO_SPECIAL);
    const boundary = lastBoundaryAtOrBefore(tiktoken, tokens, piece, start, cut);
    // A token spanning the cut, or one token filling the whole piece, may be part of a longer
    // token in the whole run (runs of spaces, "-", "="): look further before cutting.
    const mayGrow = boundary === null || (boundary.tokens === 1 && boundary.offset === cut);
    if (mayGrow && size < MAX_GROWN_PIECE_BYTES) {
      size *= 2;
    } else if (boundary !== null) {
      total += boundary.tokens;
      start = boundary.offset;
      size = MAX_PIECE_BYTES;
    } else {
      total += encodedLength(tiktoken, piece.slice(start, cut));
      start = cut;
      size = MAX_PIECE_BYTES;
    }
  }
  return total;
}

/**
 * The last token boundary of `tokens` (the encoding of `piece` from `start`) at or before `cut`:
 * how many tokens precede it and where it is in `piece`. A prefix of tokens ends on a boundary
 * when it decodes to exactly the text it covers (a prefix ending inside a multi-byte character
 * decodes to U+FFFD and does not match). Scans back from the end: the boundary is a few tokens away.
 */
function lastBoundaryAtOrBefore(
  tiktoken: TiktokenLike,
  tokens: number[],
  piece: string,
  start: number,
  cut: number,
): { tokens: number; offset: number } | null {
  for (let n = tokens.length - 1; n > 0; n--) {
    const prefix = tiktoken.decode(tokens.slice(0, n));
    const offset = start + prefix.length;
    if (offset > cut || !piece.startsWith(prefix, start)) continue;
    return offset > start ? { tokens: n, offset } : null;
  }
  return null;
}
