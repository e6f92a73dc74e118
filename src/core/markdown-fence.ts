/**
 * The fence of a Markdown code block that nothing inside can close: one backtick longer than the
 * longest backtick run in the body, at least three. One rule for every place that fences text
 * (attachments sent to a model, the Markdown export). Pure.
 */

/**
 * The longest run of `char` (one UTF-16 unit) in `text` (0 when none). A loop, not a spread: a text
 * of 300,000 runs must not spread into arguments. It jumps between occurrences with `indexOf`, a
 * native scan: a pasted 1 MB log has no backtick, and a loop over every character took 10–20 ms of
 * the paste's task (issue 24 item 10).
 */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  for (let start = text.indexOf(char); start !== -1; ) {
    let end = start + 1;
    while (text[end] === char) end++;
    if (end - start > longest) longest = end - start;
    start = text.indexOf(char, end);
  }
  return longest;
}

/** A backtick fence longer than any backtick run in `body`. */
export function fenceFor(body: string): string {
  return "`".repeat(Math.max(3, longestRun(body, "`") + 1));
}
