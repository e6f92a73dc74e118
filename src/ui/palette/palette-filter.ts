/**
 * The command palette's filter: which commands match what was typed, best first. A command
 * matches when every word typed starts a word of its label or keywords (so "gr" finds "Show
 * history graph", "new" finds "New chat"); label matches rank before keyword matches, then the
 * given order holds. Pure: no DOM, no React.
 */
import { normalizeForSearch } from "../settings/settings-search";

export type PaletteEntry = { readonly label: string; readonly keywords?: readonly string[] };

const wordsOf = (text: string): string[] =>
  normalizeForSearch(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

function rank(entry: PaletteEntry, typed: readonly string[]): number | null {
  const label = wordsOf(entry.label);
  const all = [...label, ...(entry.keywords ?? []).flatMap(wordsOf)];
  if (!typed.every((t) => all.some((w) => w.startsWith(t)))) return null;
  return typed.every((t) => label.some((w) => w.startsWith(t))) ? 0 : 1;
}

export function filterPalette<T extends PaletteEntry>(entries: readonly T[], query: string): T[] {
  const typed = wordsOf(query);
  if (typed.length === 0) return [...entries];
  return entries
    .map((entry, i) => ({ entry, i, r: rank(entry, typed) }))
    .filter((x): x is { entry: T; i: number; r: number } => x.r !== null)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.entry);
}
