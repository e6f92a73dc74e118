/**
 * The fence of a Markdown code block that nothing inside can close: one backtick longer than the
 * longest backtick run in the body, at least three. One rule for every place that fences text
 * (attachments sent to a model, the Markdown export). Pure.
 */

/** The longest run of `char` in `text` (0 when none). A loop: a text of 300,000 runs must not spread into arguments. */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === char) {
      run++;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  return longest;
}

/** A backtick fence longer than any backtick run in `body`. */
export function fenceFor(body: string): string {
  return "`".repeat(Math.max(3, longestRun(body, "`") + 1));
}
