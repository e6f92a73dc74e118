/**
 * The font strikes remembered between visits (font-warmup.ts says why), in localStorage: what the
 * warming half reads at start and the remembering half (font-strikes-memory.ts) writes.
 */

export const STORAGE_KEY = "grove.fontStrikes.v1";
/** Strikes remembered (the newest kept): a chat with every kind of Markdown uses about 30. */
export const FONT_STRIKES_KEPT = 48;
/** Characters beyond ASCII remembered per strike. */
export const RARE_KEPT = 12;

/**
 * A strike as CSS `font` shorthand (`italic 700 15px system-ui, sans-serif`), and the characters
 * beyond ASCII seen in it.
 */
export type FontStrike = { font: string; rare: string };

/** The remembered strikes (none when storage is empty, unreadable or not ours). */
export function stored(): FontStrike[] {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(list)) return [];
    return list.filter((s): s is FontStrike => typeof s?.font === "string" && typeof s?.rare === "string");
  } catch {
    return [];
  }
}
