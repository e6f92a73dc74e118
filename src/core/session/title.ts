/** Automatic session titles from the first user message: its first words (entry-text.ts), at once. No I/O here. */
import { firstWords } from "./entry-text";

export const TITLE_MAX_WORDS = 7;
export const TITLE_MAX_CHARS = 60;
export const UNTITLED = "New chat";

export function titleFromText(text: string): string {
  return firstWords(text, TITLE_MAX_WORDS, TITLE_MAX_CHARS) || UNTITLED;
}

/**
 * A model's answer to "title this chat", made safe for the sidebar: its first non-empty line,
 * without a "Title:" label, quotes, Markdown emphasis or heading marks, or a trailing period, and no
 * longer than a typed title. null when nothing usable is left (the first-words title then stays).
 */
export function titleFromModel(raw: string): string | null {
  const line = raw
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (!line) return null;
  const clean = line
    .replace(/[*`]+/g, "")
    .replace(/^#+\s*/, "")
    .replace(/^title\s*:\s*/i, "")
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "")
    .replace(/[.。]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (clean === "") return null;
  const chars = Array.from(clean);
  return chars.length > TITLE_MAX_CHARS
    ? `${chars
        .slice(0, TITLE_MAX_CHARS - 1)
        .join("")
        .trimEnd()}…`
    : clean;
}
