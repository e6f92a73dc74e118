/**
 * The walk (DESIGN §6): the display tree (display-tree.ts) turned into the graph's nodes, parents
 * before children. Filters hide nodes without breaking the tree (a hidden node's children hang
 * from its nearest visible ancestor); a collapsed node hides what is below it; a long run of plain
 * messages becomes one "Collapsed run" node; a session handed off to becomes a "Handoff" node
 * below the entry it was written from. Nodes come out unplaced (x and y 0: place.ts places them).
 *
 * O(n), iterative (an explicit stack: a 2,000-deep path must not overflow the call stack).
 * Pure: no React, no DOM, no I/O.
 */
import type { Entry, Session } from "../session/entries";
import { entryTitle, firstWords } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import type { TreeIndex } from "../session/tree";
import { type DisplayTree, displayTree } from "./display-tree";
import { foldedSpans } from "./folded";
import { type GraphFilter, type GraphNode, handoffKey, passes, runKey } from "./node";
import { kindOf } from "./text";

export type WalkOptions = {
  leafId: EntryId | null;
  labels?: ReadonlyMap<EntryId, string>;
  filter?: GraphFilter;
  collapsed?: ReadonlySet<string>;
  /** Sessions handed off from this one: each becomes a "Handoff" node below the entry it was written from. */
  childSessions?: readonly Session[];
  /** The session this one continues (for the title of its "Handoff" node). */
  parentSession?: Session | null;
  /** Fold long runs of plain messages into one node each (default true; only with the "all" filter). */
  foldRuns?: boolean;
  /** Keys (`runKey`) of runs the user expanded. */
  expandedRuns?: ReadonlySet<string>;
};

/** A node as the walk makes it: everything but its place (x and y are 0 until placed). */
type WalkedNode = Omit<GraphNode, "x" | "y"> & { x: number; y: number };

export type Walk = {
  /** In pre-order: a parent's index is smaller than its children's. */
  readonly nodes: readonly WalkedNode[];
  /** Each node's children (the arrays its `children` are), for the layout. */
  readonly children: readonly (readonly number[])[];
  /** Each node's parent, -1 for a root. */
  readonly parents: readonly number[];
  readonly roots: readonly number[];
  readonly byKey: ReadonlyMap<string, number>;
  /** For every entry: the node that shows it (itself, or the ancestor it is hidden under), when any. */
  readonly nodeOfEntry: ReadonlyMap<EntryId, number>;
  /** Where you are (see Facts.hereId). */
  readonly hereId: EntryId | null;
};

/** A run is collapsed when at least this many entries would be hidden in it. */
export const RUN_MIN_HIDDEN = 8;
/** Entries kept in view at a run's top and bottom (its context). */
const RUN_HEAD = 1;
const RUN_TAIL = 2;

const NO_LABELS: ReadonlyMap<EntryId, string> = new Map();
const NO_KEYS: ReadonlySet<string> = new Set();

/** What the walk still has to visit. */
type Pending =
  /** `inRun`: a plain entry whose run was already looked at from its top. */
  | { kind: "entry"; entry: Entry; parent: number; hidden: boolean; inRun?: boolean }
  | { kind: "link"; session: Session; parent: number; hidden: boolean }
  | { kind: "run"; entries: Entry[]; next: Entry; parent: number };

/** A node's own facts: what the walk knows before it is added (its index, children and depth follow). */
type NodeFacts = Omit<GraphNode, "index" | "children" | "depth" | "x" | "y">;

/** What every node is decided from, gathered once per walk. */
type Facts = {
  readonly tree: DisplayTree;
  readonly onPath: ReadonlySet<EntryId>;
  /** Where you are: the leaf, or the entry a leaf compaction drawn at its cut was written after. */
  readonly hereId: EntryId | null;
  readonly labels: ReadonlyMap<EntryId, string>;
  readonly filter: GraphFilter;
  readonly collapsed: ReadonlySet<string>;
  readonly expandedRuns: ReadonlySet<string>;
  readonly foldRuns: boolean;
  /** Each compaction's folded span (folded.ts). */
  readonly spans: ReadonlyMap<EntryId, readonly EntryId[]>;
  /** The latest compaction that folded each entry. */
  readonly foldedBy: ReadonlyMap<EntryId, EntryId>;
  /** Sessions handed off to, by the entry they were written from. */
  readonly linksAt: ReadonlyMap<EntryId, readonly Session[]>;
  /** Entries below each entry, when any node is collapsed (for "n hidden"). */
  readonly below: ReadonlyMap<EntryId, number> | null;
  readonly parentSession: Session | null;
};

/**
 * The graph's nodes for the tree in `index` whose active path (root to leaf, as `pathToRoot`
 * returns it) is `path`.
 */
export function walkGraph(index: TreeIndex, path: readonly Entry[], opts: WalkOptions): Walk {
  const filter = opts.filter ?? "all";
  const collapsed = opts.collapsed ?? NO_KEYS;
  const spans = foldedSpans(index);
  const tree = displayTree(index);
  const facts: Facts = {
    tree,
    onPath: new Set(path.map((e) => e.id)),
    hereId: opts.leafId ? tree.anchorOf(opts.leafId) : null,
    labels: opts.labels ?? NO_LABELS,
    filter,
    collapsed,
    expandedRuns: opts.expandedRuns ?? NO_KEYS,
    foldRuns: (opts.foldRuns ?? true) && filter === "all",
    spans,
    foldedBy: latestFolder(index, spans),
    linksAt: linksByEntry(index, opts.childSessions ?? []),
    // Only collapsed entries need it: one post-order pass, only when any is collapsed.
    below: collapsed.size > 0 ? subtreeSizes(index) : null,
    parentSession: opts.parentSession ?? null,
  };
  const { labels, linksAt } = facts;

  const nodes: WalkedNode[] = [];
  const children: number[][] = [];
  const parents: number[] = [];
  const roots: number[] = [];
  const nodeOfEntry = new Map<EntryId, number>();
  const byKey = new Map<string, number>();

  const addNode = (f: NodeFacts): number => {
    const i = nodes.length;
    const depth = f.parent >= 0 ? nodes[f.parent]!.depth + 1 : 0;
    const kids: number[] = [];
    // Spelled out, not spread: one object shape for all nodes, and a spread of 20 fields costs
    // tens of milliseconds on 10,000 nodes. x and y are set once placed (place.ts).
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

  // A plain entry can disappear into a run: a message with one child, nothing hanging from it, and
  // nothing about it the graph points out (a label, a fold the user made). Not the leaf either: a
  // leaf has no child, or (rewound to) one, and then it is found under its run — runs do not depend
  // on where you are, so that switching branches moves nothing.
  const plain = (e: Entry): boolean =>
    e.type === "message" &&
    !labels.has(e.id) &&
    !linksAt.has(e.id) &&
    !facts.collapsed.has(e.id) &&
    tree.childrenOf(e.id).length === 1;

  const stack: Pending[] = [];
  for (let i = tree.roots.length - 1; i >= 0; i--) {
    stack.push({ kind: "entry", entry: tree.roots[i]!, parent: -1, hidden: false });
  }
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.kind === "link") {
      if (!item.hidden && passes(filter, "handoff", false)) addNode(linkNode(item.session, item.parent));
      continue;
    }
    if (item.kind === "run") {
      const rep = addNode(runNode(item.entries, item.parent, facts));
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
      const isCollapsed = kids.length + (linksAt.get(entry.id)?.length ?? 0) > 0 && facts.collapsed.has(entry.id);
      rep = addNode(entryNode(entry, item.parent, isCollapsed, facts));
      hideBelow = isCollapsed;
    }
    if (rep >= 0) nodeOfEntry.set(entry.id, rep);
    if (facts.foldRuns && !hideBelow && !item.hidden && plain(entry)) {
      if (item.inRun) {
        stack.push({ kind: "entry", entry: kids[0]!, parent: rep, hidden: false, inRun: true });
        continue;
      }
      // The top of a run: walk it once, and fold its middle when it is long enough.
      const run: Entry[] = [entry];
      for (let e = kids[0]!; plain(e); e = tree.childrenOf(e.id)[0]!) run.push(e);
      const hidden = run.slice(RUN_HEAD, run.length - RUN_TAIL);
      const next = run[run.length - RUN_TAIL];
      if (hidden.length >= RUN_MIN_HIDDEN && next && !facts.expandedRuns.has(runKey(hidden[0]!.id))) {
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
  return { nodes, children, parents, roots, byKey, nodeOfEntry, hereId: facts.hereId };
}

/** The node of an entry shown as itself. */
function entryNode(entry: Entry, parent: number, collapsed: boolean, facts: Facts): NodeFacts {
  const { parentSession } = facts;
  return {
    key: entry.id,
    entry,
    kind: kindOf(entry),
    title: entryTitle(entry),
    label: facts.labels.get(entry.id) ?? null,
    status: entry.type === "message" ? entry.status : null,
    parent,
    onActivePath: facts.onPath.has(entry.id),
    isLeaf: entry.id === facts.hereId,
    matchesSearch: false,
    collapsed,
    hiddenCount: collapsed && facts.below ? (facts.below.get(entry.id) ?? 0) : 0,
    foldedBy: facts.foldedBy.get(entry.id) ?? null,
    compaction:
      entry.type === "compaction"
        ? {
            shortSummary: entry.shortSummary,
            tokensBefore: entry.tokensBefore,
            tokensAfter: entry.tokensAfter,
            reason: entry.reason,
            model: entry.model,
            firstKeptEntryId: entry.firstKeptEntryId,
            folded: facts.spans.get(entry.id) ?? [],
          }
        : null,
    summaryOf: entry.type === "branch_summary" ? entry.fromId : null,
    handoff:
      entry.type === "handoff"
        ? {
            direction: "from",
            sessionId: entry.fromSessionId,
            title: parentSession?.id === entry.fromSessionId ? parentSession.title : null,
            fromEntryId: entry.fromEntryId,
          }
        : null,
    run: null,
  };
}

/** The node standing for a collapsed run of plain messages (`entries`, top to bottom). */
function runNode(entries: readonly Entry[], parent: number, facts: Facts): NodeFacts {
  const first = entries[0]!;
  return {
    key: runKey(first.id),
    entry: null,
    kind: "run",
    title: `${entries.length.toLocaleString("en-US")} messages`,
    label: null,
    status: null,
    parent,
    onActivePath: facts.onPath.has(first.id),
    isLeaf: false,
    matchesSearch: false,
    collapsed: false,
    hiddenCount: 0,
    foldedBy: facts.foldedBy.get(first.id) ?? null,
    compaction: null,
    summaryOf: null,
    handoff: null,
    run: { entries },
  };
}

/** The node linking to session `s`, handed off from this one. */
function linkNode(s: Session, parent: number): NodeFacts {
  return {
    key: handoffKey(s.id),
    entry: null,
    kind: "handoff",
    title: firstWords(`Continued in ${s.title}`),
    label: null,
    status: null,
    parent,
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
  };
}

/** For each folded entry, the latest compaction that folded it. */
function latestFolder(
  index: TreeIndex,
  spans: ReadonlyMap<EntryId, readonly EntryId[]>,
): ReadonlyMap<EntryId, EntryId> {
  const foldedBy = new Map<EntryId, EntryId>();
  if (spans.size === 0) return foldedBy;
  // Oldest compaction first, so an entry folded twice names the latest compaction.
  const compactions = [...spans.keys()].map((id) => index.byId.get(id)!);
  compactions.sort((a, b) => a.createdAt - b.createdAt);
  for (const c of compactions) for (const id of spans.get(c.id) ?? []) foldedBy.set(id, c.id);
  return foldedBy;
}

/** Sessions handed off to, by the entry of this session they were written from (unknown entries dropped). */
function linksByEntry(index: TreeIndex, childSessions: readonly Session[]): ReadonlyMap<EntryId, readonly Session[]> {
  const linksAt = new Map<EntryId, Session[]>();
  for (const s of childSessions) {
    if (!s.parentEntryId || !index.byId.has(s.parentEntryId)) continue;
    const list = linksAt.get(s.parentEntryId);
    if (list) list.push(s);
    else linksAt.set(s.parentEntryId, [s]);
  }
  return linksAt;
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
