/**
 * The rows the chat shows for an active path (DESIGN §3 as the user sees it). Pure: no React, no I/O.
 *
 * What is sent, kept and joined is the context plan's answer (core/session/plan-context.ts), the
 * same one buildContext sends; this module only lays it out as rows.
 * - A compaction's card is drawn AT ITS CUT: right above the first entry of its kept region, else
 *   (it kept nothing) at the compaction's own position. The compaction entry itself gets no row
 *   where it sits on the path.
 * - Only the latest compaction on the path decides what is sent: entries before its kept region
 *   are `folded` (shown dimmed, "not sent"), except the user turns it keeps verbatim (`kept`).
 *   Everything else is `sent`. Earlier compactions' cards are marked as superseded.
 * - A "Continue" reply the plan joins to the reply it extends is drawn in that reply's row (one
 *   row, no second header) when nothing is drawn between them.
 * - `continuable`: the row ends in a reply cut off by the output limit, and nothing but compaction
 *   entries follows it on the path (Continue extends the leaf).
 */
import type { CompactionEntry, Entry, MessageEntry } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";
import { compactionCuts, planContext } from "../../core/session/plan-context";
import { prunedToolOutputs } from "../../core/session/prune-tool-outputs";

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
  /** Tool results of `entry` sent as "[Output truncated …]" (prune-tool-outputs.ts): block index → tokens. */
  readonly pruned?: ReadonlyMap<number, number>;
};

type CompactionRow = {
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

export function displayRows(path: readonly Entry[]): DisplayRow[] {
  const plan = planContext(path);
  const latest = plan.compaction;
  const keptIds = new Set<EntryId>(plan.keptUserTurns.map((e) => e.id));
  const pruned = prunedToolOutputs(path, plan.keptStart);

  // Cards that move up to their cut (the start of that compaction's kept region), by the entry
  // they are drawn above.
  const cuts = compactionCuts(path);
  const cardsAbove = new Map<EntryId, CompactionEntry[]>();
  const moved = new Set<EntryId>();
  path.forEach((e, i) => {
    if (e.type !== "compaction") return;
    const start = cuts.get(e.id) ?? i + 1;
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
    // Joined as the plan (and so the request) joins it, when nothing is drawn between.
    if (
      entry.type === "message" &&
      prev?.kind === "entry" &&
      prev.entry.type === "message" &&
      plan.joins.get(entry.id) === prev.entry.id
    ) {
      rows[rows.length - 1] = {
        ...prev,
        continuations: [...prev.continuations, entry],
        continuable: continuable(entry, i === lastContentIndex),
      };
      return;
    }
    const visibility: Visibility =
      i >= plan.keptStart
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
      ...(pruned.has(entry.id) ? { pruned: pruned.get(entry.id) } : {}),
    });
  });
  return rows;
}

function continuable(entry: MessageEntry, atEnd: boolean): boolean {
  return atEnd && entry.role === "assistant" && entry.stopReason === "length" && entry.status === "complete";
}
