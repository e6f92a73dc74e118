/**
 * How many bytes `text` takes in UTF-8 (what `new TextEncoder().encode(text).length` says, a lone
 * surrogate counted as the 3 bytes of U+FFFD it becomes), without encoding it: the composer's chip
 * shows a text attachment's size, and encoding a pasted 1 MB log to count it copied a megabyte in
 * the paste's task (issue 24 item 10). Pure.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // a pair: 2 units, 4 bytes
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
