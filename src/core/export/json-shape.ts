/**
 * A byte-level look at a JSON (or JSON Lines) text before it is parsed: how deep it nests and how
 * many objects and arrays it holds. JSON.parse is fast on text and numbers but slow on containers
 * (50 MB of nested arrays took 51 s to parse, only to be rejected after), and every walk of a deep
 * value risks the stack. Chat exports are shallow and wordy, so a file that is deep, or dense in
 * containers, is refused by its shape in one linear pass, before any parse.
 */

export const JSON_SHAPE_LIMITS = {
  /** Nesting levels; a Grove entry with tool arguments is ~10 levels deep, models' arguments a few more. */
  maxDepth: 200,
  /** Containers allowed whatever the file's size… */
  freeContainers: 1_000_000,
  /** …and beyond that, at most one container per this many characters (an entry alone is ~100+). */
  minCharsPerContainer: 16,
} as const;

/** Why the text's shape is not a chat export's, or null. Strings are skipped; malformed JSON is left to the parser. */
export function checkJsonShape(text: string): string | null {
  const L = JSON_SHAPE_LIMITS;
  const maxContainers = Math.max(L.freeContainers, Math.floor(text.length / L.minCharsPerContainer));
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i + 1);
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      containers++;
      if (depth > L.maxDepth) {
        return `The file nests more than ${L.maxDepth} levels deep (at character ${i.toLocaleString("en")}); no chat export does.`;
      }
      if (containers > maxContainers) {
        return `The file holds more than ${maxContainers.toLocaleString("en")} JSON objects and arrays in ${text.length.toLocaleString("en")} characters; a chat export is mostly text.`;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (depth > 0) depth--;
    }
  }
  return null;
}

/** Index of the quote closing a string whose content starts at `from` (the end of the text if none). */
function stringEnd(text: string, from: number): number {
  let at = from;
  for (;;) {
    const q = text.indexOf('"', at);
    if (q < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return q;
    at = q + 1;
  }
}
