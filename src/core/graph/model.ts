/**
 * The history graph's model (DESIGN §6): every entry of a session as a node of a tree, plus links
 * to the sessions a handoff connects, laid out once per model. Filters hide nodes without breaking
 * the tree (a hidden node's children hang from its nearest visible ancestor); a collapsed node
 * hides what is below it. Search only marks nodes, so it never moves anything.
 *
 * O(n) apart from the tree index's sort (O(n log n)), iterative everywhere: a 10,000-entry session
 * with a 2,000-deep path builds in tens of milliseconds without deep recursion.
 * Pure: no React, no DOM, no I/O.
 */
import type { CompactionReason, Entry, MessageStatus, Session } from "../session/entries";
import { entrySearchText, entryTitle, firstWords, searchTerms } from "../session/entry-text";
import type { EntryId, SessionId } from "../session/ids";
import { buildTreeIndex, type TreeIndex } from "../session/tree";
import { displayTree } from "./display-tree";
import { foldedSpans } from "./folded";
import { laneLayout } from "./layout";
import { type GraphNodeKind, kindOf } from "./text";

export type GraphFilter = "all" | "no-summaries" | "user-only" | "labelled";

export const GRAPH_FILTERS: readonly GraphFilter[] = ["all", "no-summaries", "user-only", "labelled"];

/** Node box and spacing, in graph units (CSS pixels at zoom 1). */
export const NODE_WIDTH = 184;
export const NODE_HEIGHT = 56;
/** Horizontal distance between the centres of two neighbouring columns. */
export const COLUMN_PITCH = NODE_WIDTH + 18;
/** Vertical distance between two levels (top to top). */
export const ROW_PITCH = NODE_HEIGHT + 30;

export type CompactionInfo = {
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

export type HandoffLink = {
  /** "from": this session continues `sessionId`; "to": this session was handed off to it. */
  readonly direction: "from" | "to";
  readonly sessionId: SessionId;
  /** The other session's title, when known. */
  readonly title: string | null;
  /** The entry of the older session the handoff was written from. */
  readonly fromEntryId: EntryId | null;
};

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

/**
 * A long stretch of plain messages, one after another with no fork, shown as one node so a long
 * agent session stays legible at "Fit" (level of detail). Expanding it shows them all.
 */
export type RunInfo = { readonly entries: readonly Entry[] };

/** A run is collapsed when at least this many entries would be hidden in it. */
export const RUN_MIN_HIDDEN = 8;
/** Entries kept in view at a run's top and bottom (its context). */
const RUN_HEAD = 1;
const RUN_TAIL = 2;

/** The key of the node standing for a collapsed run whose first hidden entry is `first`. */
export const runKey = (first: EntryId): string => `run:${first}`;

export type GraphEdge = {
  readonly from: number;
  readonly to: number;
  /** "tree": parent to child. "summary": a branch summary to the leaf of the branch it summarizes. */
  readonly kind: "tree" | "summary";
  /** Both ends on the active path (tree edges only). */
  readonly active: boolean;
};

export type GraphModel = {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly roots: readonly number[];
  readonly byKey: ReadonlyMap<string, number>;
  /**
   * The node where the session's leaf is: the leaf's node, or its nearest shown ancestor when the
   * leaf is filtered out or collapsed. -1 when the session is empty (or nothing is shown).
   */
  readonly currentIndex: number;
  /** Node indices by level, each level left to right; level d is `byDepth[depthStart[d] .. depthStart[d+1])`. */
  readonly byDepth: Int32Array;
  readonly depthStart: Int32Array;
  readonly maxDepth: number;
  /** Extent of the node boxes, graph units. */
  readonly bounds: { readonly minX: number; readonly maxX: number; readonly minY: number; readonly maxY: number };
  /** Indices of the nodes matching the search, top to bottom. */
  readonly matches: readonly number[];
  /** For every entry: the node that shows it (itself, or the ancestor it is hidden under), when any. */
  readonly nodeOfEntry: ReadonlyMap<EntryId, number>;
};

export type GraphOptions = {
  leafId: EntryId | null;
  labels?: ReadonlyMap<EntryId, string>;
  filter?: GraphFilter;
  search?: string;
  collapsed?: ReadonlySet<string>;
  /** Sessions handed off from this one: each becomes a "Handoff" node below the entry it was written from. */
  childSessions?: readonly Session[];
  /** The session this one continues (for the title of its "Handoff" node). */
  parentSession?: Session | null;
  /** The tree index of `entries`, when the caller has it already. */
  index?: TreeIndex;
  /** Fold long runs of plain messages into one node each (default true; only with the "all" filter). */
  foldRuns?: boolean;
  /** Keys (`runKey`) of runs the user expanded. */
  expandedRuns?: ReadonlySet<string>;
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type Pending =
  /** `inRun`: a plain entry whose run was already looked at from its top. */
  | { kind: "entry"; entry: Entry; parent: number; hidden: boolean; inRun?: boolean }
  | { kind: "link"; session: Session; parent: number; hidden: boolean }
  | { kind: "run"; entries: Entry[]; next: Entry; parent: number };

const NO_LABELS: ReadonlyMap<EntryId, string> = new Map();
const NO_KEYS: ReadonlySet<string> = new Set();

/** The key of the node linking to a session this one was handed off to. */
export const handoffKey = (sessionId: SessionId): string => `handoff:${sessionId}`;

function passes(filter: GraphFilter, kind: GraphNodeKind, labelled: boolean): boolean {
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

/**
 * Builds the graph of a session's entries: nodes, edges and their layout.
 *
 * @example
 * const model = buildGraphModel(entries, { leafId: session.leafId, labels, filter: "all" });
 * const leaf = model.nodes[model.currentIndex]; // leaf.isLeaf === true
 */
export function buildGraphModel(entries: Iterable<Entry>, opts: GraphOptions): GraphModel {
  const index = opts.index ?? buildTreeIndex(entries);
  const labels = opts.labels ?? NO_LABELS;
  const filter = opts.filter ?? "all";
  const collapsedKeys = opts.collapsed ?? NO_KEYS;
  const leafId = opts.leafId;

  // The active path (root to leaf), iteratively and cycle-safe.
  const onPath = new Set<EntryId>();
  const path: Entry[] = [];
  for (let e = leafId ? index.byId.get(leafId) : undefined; e && !onPath.has(e.id); ) {
    onPath.add(e.id);
    path.push(e);
    e = e.parentId !== null ? index.byId.get(e.parentId) : undefined;
  }
  path.reverse();
  const tree = displayTree(index, path);
  const expandedRuns = opts.expandedRuns ?? NO_KEYS;
  const foldRuns = (opts.foldRuns ?? true) && filter === "all";

  const spans = foldedSpans(index);
  const foldedBy = new Map<EntryId, EntryId>();
  if (spans.size > 0) {
    // Oldest compaction first, so an entry folded twice names the latest compaction.
    const compactions = [...spans.keys()].map((id) => index.byId.get(id)!);
    compactions.sort((a, b) => a.createdAt - b.createdAt);
    for (const c of compactions) for (const id of spans.get(c.id) ?? []) foldedBy.set(id, c.id);
  }

  // Links to later sessions, by the entry they were written from.
  const linksAt = new Map<EntryId, Session[]>();
  for (const s of opts.childSessions ?? []) {
    if (!s.parentEntryId || !index.byId.has(s.parentEntryId)) continue;
    const list = linksAt.get(s.parentEntryId);
    if (list) list.push(s);
    else linksAt.set(s.parentEntryId, [s]);
  }

  // Subtree sizes (entries below each entry), for "n hidden" on collapsed nodes: only needed for
  // collapsed entries, so computed lazily by one post-order pass when any is collapsed.
  const below = collapsedKeys.size > 0 ? subtreeSizes(index) : null;

  const nodes: Mutable<GraphNode>[] = [];
  const children: number[][] = [];
  const parents: number[] = [];
  const roots: number[] = [];
  const nodeOfEntry = new Map<EntryId, number>();
  const byKey = new Map<string, number>();

  const stack: Pending[] = [];
  for (let i = tree.roots.length - 1; i >= 0; i--) {
    stack.push({ kind: "entry", entry: tree.roots[i]!, parent: -1, hidden: false });
  }

  // A plain entry can disappear into a run: a message with one child, nothing hanging from it, and
  // nothing about it the graph points out (a label, the leaf, a fold the user made).
  const plain = (e: Entry): boolean =>
    e.type === "message" &&
    e.id !== leafId &&
    !labels.has(e.id) &&
    !linksAt.has(e.id) &&
    !collapsedKeys.has(e.id) &&
    tree.childrenOf(e.id).length === 1;

  const addNode = (f: Omit<GraphNode, "index" | "children" | "depth" | "x" | "y">): number => {
    const i = nodes.length;
    const depth = f.parent >= 0 ? nodes[f.parent]!.depth + 1 : 0;
    const kids: number[] = [];
    // Spelled out, not spread: one object shape for all nodes, and a spread of 20 fields costs
    // tens of milliseconds on 10,000 nodes. x and y are set by the layout below.
    nodes.push({
      index: i,
      key: f.key,
      entry: f.entry,
      kind: f.kind,
      title: f.title,
      label: f.label,
      status: f.status,
      parent: f.parent,
      children: kids,
      depth,
      x: 0,
      y: 0,
      onActivePath: f.onActivePath,
      isLeaf: f.isLeaf,
      matchesSearch: f.matchesSearch,
      collapsed: f.collapsed,
      hiddenCount: f.hiddenCount,
      foldedBy: f.foldedBy,
      compaction: f.compaction,
      summaryOf: f.summaryOf,
      handoff: f.handoff,
      run: f.run,
    });
    children.push(kids);
    parents.push(f.parent);
    if (f.parent >= 0) children[f.parent]!.push(i);
    else roots.push(i);
    byKey.set(f.key, i);
    return i;
  };

  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.kind === "link") {
      if (item.hidden || !passes(filter, "handoff", false)) continue;
      const s = item.session;
      addNode({
        key: handoffKey(s.id),
        entry: null,
        kind: "handoff",
        title: firstWords(`Continued in ${s.title}`),
        label: null,
        status: null,
        parent: item.parent,
        onActivePath: false,
        isLeaf: false,
        matchesSearch: false,
        collapsed: false,
        hiddenCount: 0,
        foldedBy: null,
        compaction: null,
        summaryOf: null,
        handoff: { direction: "to", sessionId: s.id, title: s.title, fromEntryId: s.parentEntryId ?? null },
        run: null,
      });
      continue;
    }
    if (item.kind === "run") {
      const first = item.entries[0]!;
      const rep = addNode({
        key: runKey(first.id),
        entry: null,
        kind: "run",
        title: `${item.entries.length.toLocaleString("en-US")} messages`,
        label: null,
        status: null,
        parent: item.parent,
        onActivePath: onPath.has(first.id),
        isLeaf: false,
        matchesSearch: false,
        collapsed: false,
        hiddenCount: 0,
        foldedBy: foldedBy.get(first.id) ?? null,
        compaction: null,
        summaryOf: null,
        handoff: null,
        run: { entries: item.entries },
      });
      for (const e of item.entries) nodeOfEntry.set(e.id, rep);
      stack.push({ kind: "entry", entry: item.next, parent: rep, hidden: false, inRun: true });
      continue;
    }
    // Each entry is reached once: the index lists it under one parent only, and entries caught in
    // a cycle of bad data hang from no root, so they are never reached (nothing loops).
    const { entry } = item;
    const kind = kindOf(entry);
    const label = labels.get(entry.id) ?? null;
    let rep = item.parent;
    let hideBelow = item.hidden;
    const kids = tree.childrenOf(entry.id);
    if (!item.hidden && passes(filter, kind, label !== null)) {
      const collapsed = kids.length + (linksAt.get(entry.id)?.length ?? 0) > 0 && collapsedKeys.has(entry.id);
      rep = addNode({
        key: entry.id,
        entry,
        kind,
        title: entryTitle(entry),
        label,
        status: entry.type === "message" ? entry.status : null,
        parent: item.parent,
        onActivePath: onPath.has(entry.id),
        isLeaf: entry.id === leafId,
        matchesSearch: false,
        collapsed,
        hiddenCount: collapsed && below ? (below.get(entry.id) ?? 0) : 0,
        foldedBy: foldedBy.get(entry.id) ?? null,
        compaction:
          entry.type === "compaction"
            ? {
                shortSummary: entry.shortSummary,
                tokensBefore: entry.tokensBefore,
                tokensAfter: entry.tokensAfter,
                reason: entry.reason,
                model: entry.model,
                firstKeptEntryId: entry.firstKeptEntryId,
                folded: spans.get(entry.id) ?? [],
              }
            : null,
        summaryOf: entry.type === "branch_summary" ? entry.fromId : null,
        handoff:
          entry.type === "handoff"
            ? {
                direction: "from",
                sessionId: entry.fromSessionId,
                title: opts.parentSession?.id === entry.fromSessionId ? opts.parentSession.title : null,
                fromEntryId: entry.fromEntryId,
              }
            : null,
        run: null,
      });
      hideBelow = collapsed;
    }
    if (rep >= 0) nodeOfEntry.set(entry.id, rep);
    if (foldRuns && !hideBelow && !item.hidden && plain(entry)) {
      if (item.inRun) {
        stack.push({ kind: "entry", entry: kids[0]!, parent: rep, hidden: false, inRun: true });
        continue;
      }
      // The top of a run: walk it once, and fold its middle when it is long enough.
      const run: Entry[] = [entry];
      for (let e = kids[0]!; plain(e); e = tree.childrenOf(e.id)[0]!) run.push(e);
      const hidden = run.slice(RUN_HEAD, run.length - RUN_TAIL);
      const next = run[run.length - RUN_TAIL];
      if (hidden.length >= RUN_MIN_HIDDEN && next && !expandedRuns.has(runKey(hidden[0]!.id))) {
        stack.push({ kind: "run", entries: hidden, next, parent: rep });
      } else {
        stack.push({ kind: "entry", entry: kids[0]!, parent: rep, hidden: false, inRun: true });
      }
      continue;
    }
    // Links first onto the stack, so they come out after every child: they are the last children.
    for (const s of linksAt.get(entry.id) ?? [])
      stack.push({ kind: "link", session: s, parent: rep, hidden: hideBelow });
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push({ kind: "entry", entry: kids[i]!, parent: rep, hidden: hideBelow });
    }
  }

  // Layout: lanes left to right, levels top to bottom (layout.ts).
  const layout = laneLayout({ parent: parents, children });
  const maxDepth = layout.maxDepth;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    node.x = layout.lane[i]! * COLUMN_PITCH;
    node.y = node.depth * ROW_PITCH;
  }

  // Levels, left to right (a counting sort by level, then each level by lane).
  const depthStart = new Int32Array(maxDepth + 2);
  for (const node of nodes) depthStart[node.depth + 1]!++;
  for (let d = 0; d <= maxDepth; d++) depthStart[d + 1]! += depthStart[d]!;
  const byDepth = new Int32Array(nodes.length);
  const fill = depthStart.slice(0, Math.max(0, maxDepth + 1));
  for (const node of nodes) byDepth[fill[node.depth]!++] = node.index;
  for (let d = 0; d <= maxDepth; d++) {
    const from = depthStart[d]!;
    const to = depthStart[d + 1]!;
    if (to - from > 1) byDepth.subarray(from, to).sort((p, q) => layout.lane[p]! - layout.lane[q]!);
  }

  const edges: GraphEdge[] = [];
  for (const node of nodes) {
    if (node.parent >= 0) {
      const p = nodes[node.parent]!;
      edges.push({ from: p.index, to: node.index, kind: "tree", active: p.onActivePath && node.onActivePath });
    }
  }
  for (const node of nodes) {
    if (node.summaryOf === null) continue;
    const target = nodeOfEntry.get(node.summaryOf);
    if (target !== undefined && target !== node.index) {
      edges.push({ from: node.index, to: target, kind: "summary", active: false });
    }
  }

  const currentIndex = leafId ? (nodeOfEntry.get(leafId) ?? -1) : -1;
  const empty = nodes.length === 0;
  const model: GraphModel = {
    nodes,
    edges,
    roots,
    byKey,
    currentIndex,
    byDepth,
    depthStart,
    maxDepth,
    bounds: empty
      ? { minX: 0, maxX: 0, minY: 0, maxY: 0 }
      : {
          minX: -NODE_WIDTH / 2,
          maxX: (layout.lanes - 1) * COLUMN_PITCH + NODE_WIDTH / 2,
          minY: 0,
          maxY: maxDepth * ROW_PITCH + NODE_HEIGHT,
        },
    matches: [],
    nodeOfEntry,
  };
  return opts.search ? withSearch(model, opts.search) : model;
}

/** Entries below each entry (its subtree minus itself), by one iterative post-order pass. */
function subtreeSizes(index: TreeIndex): Map<EntryId, number> {
  const order: Entry[] = [];
  const seen = new Set<EntryId>();
  const stack = [...index.roots];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    order.push(e);
    for (const c of index.childrenOf.get(e.id) ?? []) stack.push(c);
  }
  const sizes = new Map<EntryId, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const e = order[i]!;
    const mine = sizes.get(e.id) ?? 0;
    if (e.parentId !== null && seen.has(e.parentId)) {
      sizes.set(e.parentId, (sizes.get(e.parentId) ?? 0) + mine + 1);
    }
    if (!sizes.has(e.id)) sizes.set(e.id, 0);
  }
  return sizes;
}

/** Indices of the nodes whose label, title or text contains every term of `query`, top to bottom. */
export function searchGraph(model: GraphModel, query: string | undefined): number[] {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const out: number[] = [];
  for (let k = 0; k < model.byDepth.length; k++) {
    const node = model.nodes[model.byDepth[k]!]!;
    const label = node.label?.toLowerCase() ?? "";
    const title = node.title.toLowerCase();
    if (node.run) {
      // A collapsed run matches when one of its entries does (it is where that entry is drawn).
      const found = node.run.entries.some((e) => {
        const text = entrySearchText(e);
        return terms.every((t) => entryTitle(e).toLowerCase().includes(t) || text.includes(t));
      });
      if (found) out.push(node.index);
      continue;
    }
    const text = node.entry ? entrySearchText(node.entry) : "";
    if (terms.every((t) => label.includes(t) || title.includes(t) || text.includes(t))) out.push(node.index);
  }
  return out;
}

/** The model with `matchesSearch` and `matches` set for `query` (the layout is shared, not redone). */
export function withSearch(model: GraphModel, query: string | undefined): GraphModel {
  const matches = searchGraph(model, query);
  const hit = new Set(matches);
  return {
    ...model,
    nodes: model.nodes.map((n) =>
      hit.has(n.index) || n.matchesSearch ? { ...n, matchesSearch: hit.has(n.index) } : n,
    ),
    matches,
  };
}
