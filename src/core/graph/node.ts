/**
 * What the history graph is made of (DESIGN §6): one node per shown entry, a "Handoff" node per
 * session handed off to, a "Collapsed run" node per folded run of plain messages; the keys that
 * name them across rebuilds; and the filters that choose which are shown. Types and names only:
 * the walk (walk.ts) makes the nodes, place.ts places them, edges.ts joins them.
 */
import type { CompactionReason, Entry, MessageStatus } from "../session/entries";
import type { EntryId, SessionId } from "../session/ids";
import type { GraphNodeKind } from "./text";

export type GraphFilter = "all" | "no-summaries" | "user-only" | "labelled";

export const GRAPH_FILTERS: readonly GraphFilter[] = ["all", "no-summaries", "user-only", "labelled"];

/** Whether a node of `kind` is shown under `filter`. */
export function passes(filter: GraphFilter, kind: GraphNodeKind, labelled: boolean): boolean {
  switch (filter) {
    case "all":
      return true;
    case "no-summaries":
      return kind !== "compaction" && kind !== "branch_summary";
    case "user-only":
      return kind === "user";
    case "labelled":
      return labelled;
  }
}

type CompactionInfo = {
  readonly shortSummary: string;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly reason: CompactionReason;
  readonly model: string;
  readonly firstKeptEntryId: EntryId | null;
  /**
   * The entries this compaction folded into its summary, root side first: on its path, from the
   * previous compaction's first kept entry (or the root) up to, not including, its own first kept
   * entry. Ids, not nodes: some may be filtered out or collapsed.
   */
  readonly folded: readonly EntryId[];
};

type HandoffLink = {
  /** "from": this session continues `sessionId`; "to": this session was handed off to it. */
  readonly direction: "from" | "to";
  readonly sessionId: SessionId;
  /** The other session's title, when known. */
  readonly title: string | null;
  /** The entry of the older session the handoff was written from. */
  readonly fromEntryId: EntryId | null;
};

/**
 * A long stretch of plain messages, one after another with no fork, shown as one node so a long
 * agent session stays legible at "Fit" (level of detail). Expanding it shows them all.
 */
type RunInfo = { readonly entries: readonly Entry[] };

export type GraphNode = {
  readonly index: number;
  /** Stable across rebuilds: the entry id, or `handoff:<session id>` for a link to a later session. */
  readonly key: string;
  /** null for a link to a session handed off to (it is not an entry of this session). */
  readonly entry: Entry | null;
  readonly kind: GraphNodeKind;
  /** First words of what it says. */
  readonly title: string;
  /** The user's bookmark, if any. */
  readonly label: string | null;
  readonly status: MessageStatus | null;
  /** Index of the parent node (its nearest visible ancestor), -1 for a root. */
  readonly parent: number;
  /** Visible children, oldest first (links to handed-off sessions last). */
  readonly children: readonly number[];
  /** 0 for a root. */
  readonly depth: number;
  /** Centre of the box, graph units. */
  readonly x: number;
  /** Top of the box, graph units. */
  readonly y: number;
  /** On the path from the root to the session's leaf. */
  readonly onActivePath: boolean;
  /** The session's leaf entry itself. */
  readonly isLeaf: boolean;
  /** Matches the model's search (always false without a search). */
  readonly matchesSearch: boolean;
  /** Collapsed: its descendants are hidden. */
  readonly collapsed: boolean;
  /** Entries hidden below this node because it is collapsed (0 otherwise). */
  readonly hiddenCount: number;
  /** The (latest) compaction whose summary folded this entry, if any. */
  readonly foldedBy: EntryId | null;
  readonly compaction: CompactionInfo | null;
  /** For a branch summary: the leaf of the branch it summarizes. */
  readonly summaryOf: EntryId | null;
  readonly handoff: HandoffLink | null;
  /** For a collapsed run ("run" node): the entries it stands for, top to bottom. */
  readonly run: RunInfo | null;
};

/** The key of the node standing for a collapsed run whose first hidden entry is `first`. */
export const runKey = (first: EntryId): string => `run:${first}`;

/** The key of the node linking to a session this one was handed off to. */
export const handoffKey = (sessionId: SessionId): string => `handoff:${sessionId}`;
