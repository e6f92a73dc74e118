/**
 * Folding in windows (DESIGN §4.5): when the folded transcript does not fit one summarizer call,
 * it is cut into windows, each within a token budget; each call then updates the running summary.
 *
 * Segments (one per entry) are packed greedily in order; a segment larger than a whole window (a
 * huge paste, a long document) is itself cut into pieces, at a line break when one is near and
 * never inside a surrogate pair. Sizes are counted with the injected counter on the exact text
 * sent, assuming counts add up over concatenation (true of the estimate; the request's safety
 * margin absorbs real tokenizers' small disagreements).
 *
 * Pure: no I/O.
 */
import type { CountTokens } from "./entry-text";
import { SEGMENT_SEPARATOR, type SerializedSegment } from "./serialize";

/** Cuts `text` into pieces of at most `maxTokens` each (at least one character per piece). */
export function splitTextToTokens(text: string, maxTokens: number, countTokens: CountTokens): string[] {
  const max = Math.max(1, Math.floor(maxTokens));
  const total = countTokens(text);
  if (total <= max) return text === "" ? [] : [text];
  const charsPerToken = text.length / Math.max(1, total);
  const pieces: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const rest = text.length - pos;
    let len = Math.min(rest, Math.max(1, Math.floor(max * charsPerToken * 0.95)));
    if (len === rest && countTokens(text.slice(pos)) <= max) {
      pieces.push(text.slice(pos));
      break;
    }
    while (len > 1 && countTokens(text.slice(pos, pos + len)) > max) len = Math.max(1, Math.floor(len * 0.8));
    const nl = text.lastIndexOf("\n", pos + len - 1);
    if (nl >= pos + Math.floor(len * 0.8) && nl + 1 < pos + len) len = nl + 1 - pos;
    const last = text.charCodeAt(pos + len - 1);
    if (len > 1 && last >= 0xd800 && last <= 0xdbff) len--; // never end a piece between a surrogate pair
    pieces.push(text.slice(pos, pos + len));
    pos += len;
  }
  return pieces;
}

/** The transcript bodies of the windows (not wrapped), in order; [] for no segments. */
export function packWindows(
  segments: readonly SerializedSegment[],
  budgetTokens: number,
  countTokens: CountTokens,
): string[] {
  const separator = countTokens(SEGMENT_SEPARATOR);
  const windows: string[] = [];
  let current: string[] = [];
  let used = 0;
  const flush = (): void => {
    if (current.length > 0) windows.push(current.join(SEGMENT_SEPARATOR));
    current = [];
    used = 0;
  };
  for (const seg of segments) {
    const own = countTokens(seg.text);
    const tokens = own + (current.length > 0 ? separator : 0);
    if (own > budgetTokens) {
      flush();
      for (const piece of splitTextToTokens(seg.text, budgetTokens, countTokens)) windows.push(piece);
      continue;
    }
    if (used + tokens > budgetTokens) {
      flush();
      current.push(seg.text);
      used = own;
      continue;
    }
    current.push(seg.text);
    used += tokens;
  }
  flush();
  return windows;
}
