import type { Entry } from "../../core/session/entries";
import { entryText } from "../../core/session/entry-text";
import { errorMessage } from "../common/RenderBoundary";

/** The stored text shown in a row that could not be rendered, at most this many characters. */
const RAW_TEXT_MAX_CHARS = 100_000;

/** The entry's words as plain text, bounded; never throws (the entry may be what broke rendering). */
function rawText(entry: Entry): string {
  let text: string;
  try {
    text = entryText(entry);
  } catch {
    return "";
  }
  if (text.length <= RAW_TEXT_MAX_CHARS) return text;
  const more = text.length - RAW_TEXT_MAX_CHARS;
  return `${text.slice(0, RAW_TEXT_MAX_CHARS)}\n… (${more.toLocaleString("en")} more characters)`;
}

/**
 * A chat row whose rendering threw (MessageList's boundary per row): a plain error for this message
 * and its text as stored, unformatted; the other messages render as usual.
 */
export function RowFailed({ entry, error }: { entry: Entry; error: unknown }) {
  const text = rawText(entry);
  return (
    <article className="row-failed" aria-label="Message that could not be shown">
      <p role="alert" className="row-failed-note">
        This message could not be shown ({errorMessage(error)}).{text ? " Its text, unformatted:" : ""}
      </p>
      {text && <pre className="row-failed-text">{text}</pre>}
    </article>
  );
}
