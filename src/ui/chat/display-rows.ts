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
import type { CompactionEntry, Entry, MessageEntry, ToolResultBlock } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";
import type { PinnedPassage } from "../../core/session/pins";
import { compactionCuts, planContext } from "../../core/session/plan-context";
import { prunedToolOutputs } from "../../core/session/prune-tool-outputs";
import { atPause, finish, type Steps } from "../../core/steps";

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
  /** Pinned on this path ("Keep word for word", core/session/pins.ts). */
  readonly pinned?: boolean;
  /** Passages of it (and of its joined continuations) pinned on this path. */
  readonly passages?: readonly PinnedPassage[];
  readonly continuable: boolean;
  /** Tool results of `entry` sent as "[Output truncated …]" (prune-tool-outputs.ts): block index → tokens. */
  readonly pruned?: ReadonlyMap<number, number>;
  /** The answers to `entry`'s tool calls, by call id: shown inside each call's step (their tool entries get no row). */
  readonly results?: ReadonlyMap<string, ShownResult>;
};

/** A tool's answer as shown with its call: the block, and the tokens it is sent as when pruned. */
export type ShownResult = { readonly block: ToolResultBlock; readonly pruned?: number };

type CompactionRow = {
  readonly kind: "compaction";
  readonly key: string;
  readonly entry: CompactionEntry;
  /** The latest compaction on the path: the one whose summary is sent. */
  readonly latest: boolean;
  /** Pinned messages it carries word for word above its summary (the latest: as sent now). */
  readonly pinned: readonly MessageEntry[];
  /** Pinned passages it carries the same way (the latest: as sent now). */
  readonly passages: readonly PinnedPassage[];
};

export type DisplayRow = EntryRow | CompactionRow;

/** The id of the last entry a row shows (the one "Compact up to here" and Continue refer to). */
export function lastEntryIdOf(row: DisplayRow): EntryId {
  if (row.kind === "compaction") return row.entry.id;
  return row.continuations[row.continuations.length - 1]?.id ?? row.entry.id;
}

export function displayRows(path: readonly Entry[]): DisplayRow[] {
  return finish(displayRowsSteps(path));
}

/**
 * `displayRows` in steps (core/steps.ts): a pause after each pass over the path and every few
 * entries of the last, so a 2,000-message path's rows are made a few ms per task (prepare-rows.ts).
 */
export function* displayRowsSteps(path: readonly Entry[]): Steps<DisplayRow[]> {
  const plan = planContext(path);
  yield;
  const latest = plan.compaction;
  const keptIds = new Set<EntryId>(plan.keptUserTurns.map((e) => e.id));
  const pruned = prunedToolOutputs(path, plan.keptStart);
  yield;

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

  yield;
  const { results, attached } = toolAnswers(path, pruned);
  yield;
  const rows: DisplayRow[] = [];
  const messages = new Map<EntryId, MessageEntry>();
  for (const e of path) if (e.type === "message") messages.set(e.id, e);
  const card = (entry: CompactionEntry): CompactionRow => ({
    kind: "compaction",
    key: `card-${entry.id}`,
    entry,
    latest: entry === latest,
    pinned: entry === latest ? plan.pinned : recordedPins(entry, messages),
    passages: entry === latest ? plan.pinnedPassages.map((p) => p.passage) : recordedPassages(entry),
  });
  const passagesOf = new Map<EntryId, PinnedPassage[]>();
  for (const p of plan.allPinnedPassages) passagesOf.set(p.entryId, [...(passagesOf.get(p.entryId) ?? []), p]);

  for (let i = 0; i < path.length; i++) {
    if (atPause(i)) yield;
    const entry = path[i];
    if (!entry) continue;
    for (const c of cardsAbove.get(entry.id) ?? []) rows.push(card(c));
    if (entry.type === "compaction") {
      if (!moved.has(entry.id)) rows.push(card(entry));
      continue;
    }
    // A tool entry whose every result is shown with its call has no row of its own.
    if (attached.has(entry.id)) continue;
    const prev = rows[rows.length - 1];
    // Joined as the plan (and so the request) joins it, when nothing is drawn between.
    if (
      entry.type === "message" &&
      prev?.kind === "entry" &&
      prev.entry.type === "message" &&
      plan.joins.get(entry.id) === prev.entry.id
    ) {
      const more = passagesOf.get(entry.id);
      rows[rows.length - 1] = {
        ...prev,
        ...(more ? { passages: [...(prev.passages ?? []), ...more] } : {}),
        continuations: [...prev.continuations, entry],
        continuable: continuable(entry, i === lastContentIndex),
      };
      continue;
    }
    const visibility: Visibility =
      i >= plan.keptStart
        ? "sent"
        : entry.type === "message" && (keptIds.has(entry.id) || plan.pinnedIds.has(entry.id))
          ? "kept"
          : "folded";
    rows.push({
      kind: "entry",
      key: entry.id,
      entry,
      continuations: [],
      visibility,
      ...(plan.pinnedIds.has(entry.id) ? { pinned: true } : {}),
      ...(passagesOf.has(entry.id) ? { passages: passagesOf.get(entry.id) } : {}),
      continuable: entry.type === "message" && continuable(entry, i === lastContentIndex),
      ...(pruned.has(entry.id) ? { pruned: pruned.get(entry.id) } : {}),
      ...(results.has(entry.id) ? { results: results.get(entry.id) } : {}),
    });
  }
  return rows;
}

/** The passages an earlier compaction recorded carrying (`details.pinnedPassages`). */
function recordedPassages(entry: CompactionEntry): PinnedPassage[] {
  const details = entry.details as { pinnedPassages?: unknown } | undefined;
  const list = Array.isArray(details?.pinnedPassages) ? (details.pinnedPassages as unknown[]) : [];
  return list.filter(
    (p): p is PinnedPassage =>
      typeof p === "object" &&
      p !== null &&
      typeof (p as PinnedPassage).entryId === "string" &&
      typeof (p as PinnedPassage).text === "string",
  );
}

/** The pins an earlier compaction recorded carrying (`details.pinnedEntryIds`), found on the path. */
function recordedPins(entry: CompactionEntry, messages: ReadonlyMap<EntryId, MessageEntry>): MessageEntry[] {
  const details = entry.details as { pinnedEntryIds?: unknown } | undefined;
  const ids = Array.isArray(details?.pinnedEntryIds) ? details.pinnedEntryIds : [];
  return ids.flatMap((id) => {
    const m = typeof id === "string" ? messages.get(id as EntryId) : undefined;
    return m ? [m] : [];
  });
}

/**
 * Each tool result on the path, by the reply whose call it answers (issue 28: a step shows the call
 * and its result together), and the tool entries all of whose content is shown that way.
 */
function toolAnswers(
  path: readonly Entry[],
  pruned: ReadonlyMap<EntryId, ReadonlyMap<number, number>>,
): { results: Map<EntryId, Map<string, ShownResult>>; attached: Set<EntryId> } {
  const owner = new Map<string, EntryId>();
  const results = new Map<EntryId, Map<string, ShownResult>>();
  const attached = new Set<EntryId>();
  for (const e of path) {
    if (e.type !== "message") continue;
    if (e.role === "assistant") {
      for (const b of e.content) if (b.type === "tool_call") owner.set(b.id, e.id);
      continue;
    }
    if (e.role !== "tool") continue;
    let all = e.content.length > 0;
    e.content.forEach((b, i) => {
      const by = b.type === "tool_result" ? owner.get(b.callId) : undefined;
      if (b.type !== "tool_result" || by === undefined) {
        all = false;
        return;
      }
      const tokens = pruned.get(e.id)?.get(i);
      const map = results.get(by) ?? new Map<string, ShownResult>();
      results.set(by, map);
      map.set(b.callId, { block: b, ...(tokens !== undefined ? { pruned: tokens } : {}) });
    });
    if (all) attached.add(e.id);
  }
  return { results, attached };
}

function continuable(entry: MessageEntry, atEnd: boolean): boolean {
  return atEnd && entry.role === "assistant" && entry.stopReason === "length" && entry.status === "complete";
}
