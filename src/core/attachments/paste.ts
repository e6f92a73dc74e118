/**
 * What a text paste into the composer becomes. A textarea lays out pasted lines one by one on the
 * main thread: about 1,000 lines took 200 ms and 4,000 took a second in Chromium, growing faster
 * than the text (issue 24, item 10: a log of 20,000 lines froze the tab). Past a size that stays
 * well under a 50 ms task, the text is attached as a text file instead (sent to the model fenced,
 * the same words), and the message box stays light. Pure: no DOM here.
 */

/** A paste of more lines than this becomes a text file. */
export const PASTE_AS_FILE_LINES = 200;
/** A paste of more characters than this becomes a text file (one very long line is slow too). */
export const PASTE_AS_FILE_CHARS = 20_000;

/** The name the attached paste gets (the tray shows it with its size). */
const PASTED_FILE_NAME = "pasted-text.txt";

export type PasteOutcome = { kind: "type" } | { kind: "attach"; name: string };

const ATTACH: PasteOutcome = { kind: "attach", name: PASTED_FILE_NAME };

/** `type`: let the browser insert it as usual; `attach`: attach it as a text file named `name`. */
export function pasteOutcome(text: string): PasteOutcome {
  if (text.length > PASTE_AS_FILE_CHARS) return ATTACH;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    lines += 1;
    if (lines > PASTE_AS_FILE_LINES) return ATTACH;
  }
  return { kind: "type" };
}
