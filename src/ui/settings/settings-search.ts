/**
 * The settings search: which sections (and which "Advanced" parts) match what the user typed. A
 * section matches when every word of the query is found in its name or in one of its terms (the
 * labels and key words of its fields), ignoring case and accents. Pure: no DOM, no React.
 */

/** Lower case, accents stripped, one space between words. */
export function normalizeForSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Whether every word of `query` occurs in `name` or in one of `terms`; an empty query matches everything. */
export function matchesSettingsQuery(query: string, name: string, terms: readonly string[]): boolean {
  const words = normalizeForSearch(query).split(" ").filter(Boolean);
  if (words.length === 0) return true;
  const haystack = normalizeForSearch([name, ...terms].join(" \u0000 "));
  return words.every((w) => haystack.includes(w));
}
