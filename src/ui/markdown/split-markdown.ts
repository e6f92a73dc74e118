/**
 * A long message's Markdown cut into pieces that parse to the same blocks as the whole text, so
 * each piece is a component of its own: a transition render (a chat opening) yields to the page
 * between pieces, where one 5,000-character answer was one parse of tens of ms in one task.
 *
 * A cut is made only where a new top-level block starts and nothing before it can reach past it:
 * after a blank line, outside a code or math fence, before a line at column 0 that is no list
 * marker, quote, indentation or HTML. A text that could join blocks from afar (footnotes, link
 * reference definitions, HTML blocks) is never cut. Pure.
 */

/** Texts up to this long are one piece (characters). */
export const SPLIT_ABOVE_CHARS = 2_000;
/** About how long a piece grows before it is cut at the next allowed place (characters). */
export const PIECE_CHARS = 1_200;

/** Footnotes (`[^1]`), link reference definitions (`[x]: url`), and a line opening with HTML. */
const JOINS_FROM_AFAR = /\[\^|^ {0,3}\[[^\]\n]+\]:|^ {0,3}</m;

/** An opening or closing code fence (``` or ~~~, 3 or more) or a `$$` math fence, with its marker. */
const FENCE = /^ {0,3}(`{3,}|~{3,}|\${2,})/;

/** A line that may start a piece: at column 0, and not a list item, quote, heading underline or table row. */
const PIECE_START = /^[^\s\-*+>|=0-9<]/;

/** The sizes `splitMarkdown` cuts by (characters); the tests cut at every allowed place. */
export type PieceSizes = { above: number; piece: number };

/** `text` in pieces whose concatenation is `text`; one piece when short or not safely cut. */
export function splitMarkdown(
  text: string,
  { above, piece }: PieceSizes = { above: SPLIT_ABOVE_CHARS, piece: PIECE_CHARS },
): string[] {
  if (text.length <= above || JOINS_FROM_AFAR.test(text)) return [text];
  const lines = text.split("\n");
  const pieces: string[] = [];
  let start = 0; // index in `text` where the current piece starts
  let offset = 0; // index in `text` of the current line
  let fence: string | null = null;
  let blankBefore = false;
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null) {
      if (blankBefore && offset - start >= piece && PIECE_START.test(line) && text.length - offset >= piece / 2) {
        pieces.push(text.slice(start, offset));
        start = offset;
      }
      if (marker !== undefined) fence = marker;
    } else if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
      // A closing fence: the same character, at least as long (its info string would make it text,
      // but a longer-or-equal run is what the parser closes on; a line that is only the run).
      if (line.trim() === marker) fence = null;
    }
    blankBefore = line.trim() === "";
    offset += line.length + 1;
  }
  pieces.push(text.slice(start));
  return pieces;
}
