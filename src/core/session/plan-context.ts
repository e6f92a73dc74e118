/**
 * The context plan (DESIGN §3, §4.2): which part of a root→leaf path the latest compaction keeps,
 * which entries it folded, which user turns it keeps verbatim, and which "Continue" replies are
 * joined to the reply they extend. The one place these rules live: the context builder
 * (build-context.ts) sends what the plan says, the chat dims what it does not send
 * (ui/chat/display-rows.ts), the graph shades each compaction's folded span (core/graph/folded.ts),
 * the compactor folds from the kept region on (core/compaction/cut-point.ts) and the branch
 * summarizer leaves out what a compaction on the branch covered (core/branch/prepare.ts).
 *
 * Rules:
 * 1. Only the LATEST compaction on the path counts.
 * 2. Its kept region starts at `firstKeptEntryId` when that entry is on the path before the
 *    compaction; else (null, not on the path, or after the compaction) right after the compaction.
 *    Without a compaction everything is kept. For a path that is only the lower part of a longer
 *    one (`segment`), an id not on it is taken to lie above it: the whole segment is kept.
 * 3. Kept user turns: the user messages before the kept region named in `keptUserTurnIds`, in path
 *    order (ids not there are skipped; turns inside the kept region are sent there, not twice).
 *    Pinned messages (pins.ts: "Keep word for word") before the kept region are kept verbatim the
 *    same way, whatever their role and size, beside the kept user turns (a pinned user turn that
 *    is also a kept turn is listed once, as a kept turn). A pinned passage of a message before the
 *    kept region is kept verbatim the same way, unless its whole message already is (a kept turn
 *    or a pinned message).
 * 4. A compaction's folded span runs from where the previous compaction's kept region started (the
 *    previous compaction itself when that kept nothing: its summary is folded into the new one) up
 *    to its own kept region (never past itself).
 * 5. A "Continue" reply (assistant message with `continues`) is joined to the reply it extends when
 *    `continues` names the last entry sent before it and that entry is an assistant message.
 *    Compaction entries and skipped messages (errors with no content, see `isSkippedMessage`) are
 *    passed over; a join never crosses the start of the kept region (what is folded is not sent
 *    with what is kept). A skipped continuation that names the join point is listed as joined too
 *    (it adds nothing, so the chat shows it inside the reply).
 *
 * Pure: no I/O, no tree walking (the caller passes the path), no rendering.
 */
import { assertNever, type Block, type CompactionEntry, type Entry, type MessageEntry } from "./entries";
import type { EntryId } from "./ids";
import { type PinnedPassage, pinnedIds, pinnedPassages } from "./pins";

export type ContextPlan = {
  /** The latest compaction on the path: the one whose summary is sent. Null without one. */
  readonly compaction: CompactionEntry | null;
  /** Its index on the path; -1 without one. */
  readonly compactionIndex: number;
  /** Index of the first entry of the kept region (sent verbatim from here on); 0 without a compaction. */
  readonly keptStart: number;
  /**
   * Index where the latest compaction's folded span starts (rule 4); its span is
   * `path[foldedStart, foldedEnd)`. Both 0 without a compaction.
   */
  readonly foldedStart: number;
  /** End of the folded span: `min(keptStart, compactionIndex)`. */
  readonly foldedEnd: number;
  /** The user messages before the kept region the compaction keeps verbatim, in path order. */
  readonly keptUserTurns: readonly MessageEntry[];
  /** Pinned messages before the kept region that are not kept user turns, in path order (rule 3). */
  readonly pinned: readonly MessageEntry[];
  /** Every message pinned on the path (kept region included). */
  readonly pinnedIds: ReadonlySet<EntryId>;
  /** Pinned passages before the kept region whose message is not kept whole, in path order, with their message (rule 3). */
  readonly pinnedPassages: readonly { readonly message: MessageEntry; readonly passage: PinnedPassage }[];
  /** Every passage pinned on the path (kept region included). */
  readonly allPinnedPassages: readonly PinnedPassage[];
  /** Continuation id → id of the first reply of the run it is joined to (rule 5). */
  readonly joins: ReadonlyMap<EntryId, EntryId>;
};

export type PlanContextOptions = {
  /** The path is the lower part of a root→leaf path (rule 2): default false. */
  segment?: boolean;
};

/** An error reply with nothing in it never reached the user: it is not part of the conversation. */
export function isSkippedMessage(entry: MessageEntry): boolean {
  return entry.status === "error" && !hasContent(entry.content);
}

/** Whether a message has anything the user saw: non-blank text or thinking, an image, a tool block. */
export function hasContent(content: readonly Block[]): boolean {
  return content.some((b) => {
    switch (b.type) {
      case "text":
        return b.text.trim() !== "";
      case "thinking":
        return b.text.trim() !== "" || Boolean(b.signature) || Boolean(b.redactedData);
      case "reasoning":
        return b.summary.some((s) => s.trim() !== "") || Boolean(b.encryptedContent);
      case "image":
      case "document":
      case "text_file":
      case "tool_call":
      case "tool_result":
      case "server_tool":
        return true;
      default:
        return assertNever(b, "block");
    }
  });
}

function latestCompactionBefore(path: readonly Entry[], end: number): number {
  for (let i = end - 1; i >= 0; i--) if (path[i]?.type === "compaction") return i;
  return -1;
}

/** Index of each id on the path (the first, should an id repeat). */
function positions(path: readonly Entry[]): Map<EntryId, number> {
  const at = new Map<EntryId, number>();
  path.forEach((e, i) => {
    if (!at.has(e.id)) at.set(e.id, i);
  });
  return at;
}

/** Rule 2 for the compaction at `at`. */
function keptRegionStart(
  at: number,
  compaction: CompactionEntry,
  position: ReadonlyMap<EntryId, number>,
  segment: boolean,
): number {
  if (compaction.firstKeptEntryId === null) return at + 1;
  const k = position.get(compaction.firstKeptEntryId);
  if (k !== undefined && k < at) return k;
  return segment ? 0 : at + 1;
}

/**
 * Where each compaction on the path cuts it: the start of its kept region (rule 2) as if it were
 * the latest, by compaction id. The chat draws each compaction's card there.
 */
export function compactionCuts(path: readonly Entry[]): Map<EntryId, number> {
  const position = positions(path);
  const cuts = new Map<EntryId, number>();
  path.forEach((e, i) => {
    if (e.type === "compaction") cuts.set(e.id, keptRegionStart(i, e, position, false));
  });
  return cuts;
}

const isAssistant = (e: Entry | null): e is MessageEntry => e?.type === "message" && e.role === "assistant";

/** Rule 5 over `path[from, to)`, added to `joins`. */
function addJoins(path: readonly Entry[], from: number, to: number, joins: Map<EntryId, EntryId>): void {
  let last: Entry | null = null; // the last entry sent
  let head: EntryId | null = null; // the first reply of the run `last` belongs to
  for (let i = from; i < to; i++) {
    const e = path[i];
    if (e === undefined || e.type === "compaction") continue;
    const joinsLast =
      e.type === "message" &&
      e.role === "assistant" &&
      e.continues !== undefined &&
      isAssistant(last) &&
      e.continues === last.id;
    if (e.type === "message" && isSkippedMessage(e)) {
      if (joinsLast && head !== null) joins.set(e.id, head);
      continue;
    }
    if (joinsLast && head !== null) joins.set(e.id, head);
    else head = e.id;
    last = e;
  }
}

/** The plan for `path` (root first, as `pathToRoot` returns it). */
export function planContext(path: readonly Entry[], opts: PlanContextOptions = {}): ContextPlan {
  const segment = opts.segment ?? false;
  const at = latestCompactionBefore(path, path.length);
  const compaction = at >= 0 ? (path[at] as CompactionEntry) : null;
  let keptStart = 0;
  let foldedStart = 0;
  const keptUserTurns: MessageEntry[] = [];
  const pinned: MessageEntry[] = [];
  const pins = pinnedIds(path);
  const passages = pinnedPassages(path);
  const carriedPassages: { message: MessageEntry; passage: PinnedPassage }[] = [];
  if (compaction !== null) {
    const position = positions(path);
    keptStart = keptRegionStart(at, compaction, position, segment);
    const p = latestCompactionBefore(path, at);
    if (p >= 0) foldedStart = Math.min(p, keptRegionStart(p, path[p] as CompactionEntry, position, segment));
    const keptIds = new Set<EntryId>(compaction.keptUserTurnIds);
    const passagesOf = new Map<EntryId, PinnedPassage[]>();
    for (const p of passages) passagesOf.set(p.entryId, [...(passagesOf.get(p.entryId) ?? []), p]);
    for (let i = 0; i < keptStart; i++) {
      const e = path[i];
      if (e?.type !== "message") continue;
      if (e.role === "user" && keptIds.has(e.id)) keptUserTurns.push(e);
      else if (pins.has(e.id) && !isSkippedMessage(e)) pinned.push(e);
      else for (const passage of passagesOf.get(e.id) ?? []) carriedPassages.push({ message: e, passage });
    }
  }
  const joins = new Map<EntryId, EntryId>();
  addJoins(path, 0, Math.min(keptStart, path.length), joins);
  addJoins(path, keptStart, path.length, joins);
  const foldedEnd = compaction !== null ? Math.min(keptStart, at) : 0;
  return {
    compaction,
    compactionIndex: at,
    keptStart,
    foldedStart: Math.min(foldedStart, foldedEnd),
    foldedEnd,
    keptUserTurns,
    pinned,
    pinnedIds: pins,
    pinnedPassages: carriedPassages,
    allPinnedPassages: passages,
    joins,
  };
}

/** Continuation joins (rule 5) for a run of entries with no kept-region boundary inside (e.g. a folded span). */
export function continuationJoins(entries: readonly Entry[]): ReadonlyMap<EntryId, EntryId> {
  const joins = new Map<EntryId, EntryId>();
  addJoins(entries, 0, entries.length, joins);
  return joins;
}

/**
 * A continuation's content appended to the reply it extends: a text block that opens the
 * continuation flows on from a text block that ends the reply, with no delimiter, so a sentence or
 * code block cut by the output limit reads as one. Works on stored blocks (the chat) and context
 * blocks (the request) alike.
 */
export function joinContinuation<B extends { type: string }>(prev: readonly B[], next: readonly B[]): B[] {
  const last = prev[prev.length - 1];
  const first = next[0];
  if (isTextBlock(last) && isTextBlock(first)) {
    return [...prev.slice(0, -1), { ...last, text: last.text + first.text }, ...next.slice(1)];
  }
  return [...prev, ...next];
}

function isTextBlock<B extends { type: string }>(b: B | undefined): b is B & { type: "text"; text: string } {
  return b?.type === "text";
}
