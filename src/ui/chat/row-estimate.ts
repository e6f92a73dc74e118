/**
 * A row's height before it is measured, from its text (pure: no DOM). The virtualizer draws the rows
 * whose estimated place is in view: with one flat estimate (140 px) a chat opened at its end drew
 * six long answers (Markdown, code, tables) where two fill the window, and each is Markdown to
 * render before the last message can show. Roughly right is enough: rows are measured once drawn.
 */
import { type Entry, type MessageEntry, messageText } from "../../core/session/entries";
import type { DisplayRow } from "./display-rows";

/** Rows that are not messages (cards, markers) and the floor for a message. */
export const ROW_ESTIMATE_PX = 140;
/** A message's header, padding and actions line (px). */
const MESSAGE_CHROME_PX = 90;
/** One line of body text: 15 px × 1.55 (app.css). */
const LINE_PX = 23;
/** Characters on a line of the 52rem-wide message column. */
const CHARS_PER_LINE = 95;
/** Past this a row is measured anyway; a huge paste must not push everything else out of range. */
const MAX_ESTIMATE_PX = 4_000;

/** By entry (immutable, and the same object across reads of the open chat) or, when joined, by row. */
const cache = new WeakMap<object, number>();

export function estimateRowHeight(row: DisplayRow | undefined): number {
  if (row?.kind !== "entry" || row.entry.type !== "message") return ROW_ESTIMATE_PX;
  return estimateMessages(row.continuations.length === 0 ? row.entry : row, [row.entry, ...row.continuations]);
}

/** An entry's row before the rows are made (a message as if it were not joined to another). */
export function estimateEntryHeight(entry: Entry): number {
  return entry.type === "message" ? estimateMessages(entry, [entry]) : ROW_ESTIMATE_PX;
}

/** Whether `entry`'s estimate is made (cached): a row of it then costs a lookup. */
export function isEstimated(entry: Entry): boolean {
  return entry.type !== "message" || cache.has(entry);
}

function estimateMessages(key: object, messages: readonly MessageEntry[]): number {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const text = messages.map((m) => messageText(m.content)).join("\n");
  let lines = 0;
  for (const line of text.split("\n")) lines += line.length === 0 ? 0.6 : Math.ceil(line.length / CHARS_PER_LINE);
  const px = Math.min(MAX_ESTIMATE_PX, Math.max(ROW_ESTIMATE_PX, MESSAGE_CHROME_PX + Math.round(lines * LINE_PX)));
  cache.set(key, px);
  return px;
}

/** The first screen's entries: at least this many, whatever their estimated height. */
const FIRST_SCREEN_MIN_ENTRIES = 4;
/**
 * Estimated height read for the first screen, in windows: estimates are rough (a code block is
 * taller than its lines, an entry the list does not show counts as a card), and a gap above the
 * end while the rest of the path is read is worse than a few more rows read.
 */
const FIRST_SCREEN_WINDOWS = 2;

/**
 * Whether the path's last entries (newest first) fill the window, for the walk that reads a chat's
 * end before the rest (db/session-tail.ts): a chat of long answers needs a handful, not thirty.
 */
export function fillsFirstScreen(newestFirst: readonly Entry[], windowPx: number = innerHeightPx()): boolean {
  if (newestFirst.length < FIRST_SCREEN_MIN_ENTRIES) return false;
  let px = 0;
  for (const entry of newestFirst) px += estimateEntryHeight(entry);
  return px >= FIRST_SCREEN_WINDOWS * windowPx;
}

const innerHeightPx = () => (typeof window === "undefined" ? 0 : window.innerHeight);
