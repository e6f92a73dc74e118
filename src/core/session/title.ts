/** Automatic session titles from the first user message: its first words (entry-text.ts), at once. No I/O here. */
import type { AttachmentBlock } from "./entries";
import { firstWords } from "./entry-text";

const TITLE_MAX_WORDS = 7;
export const TITLE_MAX_CHARS = 60;
export const UNTITLED = "New chat";

export function titleFromText(text: string): string {
  return firstWords(text, TITLE_MAX_WORDS, TITLE_MAX_CHARS) || UNTITLED;
}

/**
 * A chat's title from its first message, before the model names it: the first words, else (a
 * message of files only) the first file's name.
 */
export function firstWordsTitle(text: string, attachments: readonly AttachmentBlock[]): string {
  return titleFromText(text.trim() || attachments.find((a) => a.name)?.name || "Attachment");
}

/**
 * A slash command ("/model sonnet", "/compact", "/skill:review") typed into a coding agent: it
 * names what the tool did, not what the chat is about, so it never becomes the title.
 */
export function isSlashCommand(text: string): boolean {
  return /^\/[\w:.-]+(\s|$)/.test(text.trimStart());
}

/** Whether a user message can name its chat: it has words and is not a slash command. */
export function canTitle(text: string): boolean {
  return text.trim() !== "" && !isSlashCommand(text);
}

/**
 * The title of a chat whose user messages are `texts` (in order): the first real message's first
 * words, skipping slash commands and blank messages; the first command only when there is nothing
 * else. null without user messages.
 */
export function titleFromUserTexts(texts: Iterable<string>): string | null {
  let fallback: string | null = null;
  for (const text of texts) {
    if (canTitle(text)) return titleFromText(text);
    if (text.trim() !== "") fallback ??= text;
  }
  return fallback === null ? null : titleFromText(fallback);
}

/** Quotes a model may wrap a title in, and the punctuation a title does not end with. */
const WRAPPING_QUOTES = /^["'`“”‘’«»„‚‹›「」『』]+|["'`“”‘’«»„‚‹›「」『』]+$/g;
const TRAILING_PUNCTUATION = /[\s.,;:!?…。．，、；：！？]+$/u;

/**
 * A model's answer to "title this chat", made safe for the sidebar: its first non-empty line,
 * without a "Title:" label, wrapping quotes, Markdown emphasis or heading marks, or trailing
 * punctuation (quotes and punctuation in either order: `"Trip."` and `"Trip".`), and no longer than
 * a typed title. null when nothing usable is left (the first-words title then stays).
 */
export function titleFromModel(raw: string): string | null {
  const line = raw
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (!line) return null;
  let clean = line
    .replace(/[*`_]{2,}|[*`]+/g, "")
    .replace(/^#+\s*/, "")
    .replace(/^title\s*:\s*/i, "")
    .replace(/\s+/g, " ")
    .trim();
  for (let before = ""; before !== clean; ) {
    before = clean;
    clean = clean.replace(WRAPPING_QUOTES, "").replace(TRAILING_PUNCTUATION, "").trim();
  }
  if (clean === "") return null;
  const chars = Array.from(clean);
  return chars.length > TITLE_MAX_CHARS
    ? `${chars
        .slice(0, TITLE_MAX_CHARS - 1)
        .join("")
        .trimEnd()}…`
    : clean;
}
