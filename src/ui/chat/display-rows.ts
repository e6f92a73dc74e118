/**
 * The rows the chat shows for an active path (DESIGN §3 as the user sees it). Pure: no React, no I/O.
 *
 * - A compaction's card is drawn AT ITS CUT: right above its first kept entry (`firstKeptEntryId`,
 *   when that is on the path before the compaction), else at the compaction's own position. The
 *   compaction entry itself gets no row where it sits on the path.
 * - Only the latest compaction on the path decides what is sent (build-context.ts): entries before
 *   its kept region are `folded` (shown dimmed, "not sent"), except the user turns it keeps verbatim
 *   (`kept`). Everything else is `sent`. Earlier compactions' cards are marked as superseded.
 * - A "Continue" reply (`continues` = the last sent message of the row just before it, nothing
 *   drawn between) is joined to the reply it extends: one row, no second header, exactly when
 *   buildContext joins them.
 * - `continuable`: the row ends in a reply cut off by the output limit, and nothing but compaction
 *   entries follows it on the path (Continue extends the leaf).
 */
import { isSkippedMessage } from "../../core/session/build-context";
import type { CompactionEntry, Entry, MessageEntry } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";

/** What the model gets of an entry under the latest compaction. */
export type Visibility = "sent" | "folded" | "kept";

export type EntryRow = {
  readonly kind: "entry";
  /** Stable across renders: the first entry's id. */
  readonly key: string;
  readonly entry: Exclude<Entry, CompactionEntry>;
  /** Continuation replies joined to `entry` (only when `entry` is an assistant message), in order. */
  readonly continuations: readonly MessageEntry[];
  readonly visibility: Visibility;
  readonly continuable: boolean;
};

export type CompactionRow = {
  readonly kind: "compaction";
  readonly key: string;
  readonly entry: CompactionEntry;
  /** The latest compaction on the path: the one whose summary is sent. */
  readonly latest: boolean;
};

export type DisplayRow = EntryRow | CompactionRow;

/** The id of the last entry a row shows (the one "Compact up to here" and Continue refer to). */
export function lastEntryIdOf(row: DisplayRow): EntryId {
  if (row.kind === "compaction") return row.entry.id;
  return row.continuations[row.continuations.length - 1]?.id ?? row.entry.id;
}

/**
 * The id a Continue reply must name to be joined to this row: its last message that is sent
 * (an error reply with no content is skipped by buildContext, so it is skipped here too).
 */
export function joinIdOf(row: EntryRow): EntryId | null {
  for (let i = row.continuations.length - 1; i >= 0; i--) {
    const c = row.continuations[i];
    if (c && !isSkippedMessage(c)) return c.id;
  }
  return row.entry.type === "message" && isSkippedMessage(row.entry) ? null : row.entry.id;
}

/** Index of the first entry that is sent after the compaction at `at` (build-context.ts rule 3). */
function keptRegionStart(path: readonly Entry[], at: number, compaction: CompactionEntry): number {
  if (compaction.firstKeptEntryId === null) return at + 1;
  const k = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
  return k >= 0 && k < at ? k : at + 1;
}

function latestCompactionIndex(path: readonly Entry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]?.type === "compaction") return i;
  return -1;
}

export function displayRows(path: readonly Entry[]): DisplayRow[] {
  const latestAt = latestCompactionIndex(path);
  const latest = latestAt >= 0 ? (path[latestAt] as CompactionEntry) : null;
  const sentFrom = latest ? keptRegionStart(path, latestAt, latest) : 0;
  const keptIds = new Set<EntryId>(latest?.keptUserTurnIds ?? []);

  // Cards that move up to their cut, by the entry they are drawn above.
  const cardsAbove = new Map<EntryId, CompactionEntry[]>();
  const moved = new Set<EntryId>();
  path.forEach((e, i) => {
    if (e.type !== "compaction") return;
    const start = keptRegionStart(path, i, e);
    const above = path[start];
    if (start > i || !above) return; // stays at its own position
    moved.add(e.id);
    const list = cardsAbove.get(above.id);
    if (list) list.push(e);
    else cardsAbove.set(above.id, [e]);
  });

  // The last index that is not a compaction: Continue is offered only on the row that ends there.
  let lastContentIndex = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]?.type !== "compaction") {
      lastContentIndex = i;
      break;
    }
  }

  const rows: DisplayRow[] = [];
  const card = (entry: CompactionEntry): CompactionRow => ({
    kind: "compaction",
    key: `card-${entry.id}`,
    entry,
    latest: entry === latest,
  });

  path.forEach((entry, i) => {
    for (const c of cardsAbove.get(entry.id) ?? []) rows.push(card(c));
    if (entry.type === "compaction") {
      if (!moved.has(entry.id)) rows.push(card(entry));
      return;
    }
    const prev = rows[rows.length - 1];
    if (
      entry.type === "message" &&
      entry.role === "assistant" &&
      entry.continues !== undefined &&
      prev?.kind === "entry" &&
      prev.entry.type === "message" &&
      prev.entry.role === "assistant" &&
      joinIdOf(prev) === entry.continues
    ) {
      rows[rows.length - 1] = {
        ...prev,
        continuations: [...prev.continuations, entry],
        continuable: continuable(entry, i === lastContentIndex),
      };
      return;
    }
    const visibility: Visibility =
      i >= sentFrom
        ? "sent"
        : entry.type === "message" && entry.role === "user" && keptIds.has(entry.id)
          ? "kept"
          : "folded";
    rows.push({
      kind: "entry",
      key: entry.id,
      entry,
      continuations: [],
      visibility,
      continuable: entry.type === "message" && continuable(entry, i === lastContentIndex),
    });
  });
  return rows;
}

function continuable(entry: MessageEntry, atEnd: boolean): boolean {
  return atEnd && entry.role === "assistant" && entry.stopReason === "length" && entry.status === "complete";
}
