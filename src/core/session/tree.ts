/**
 * Tree operations over a session's entries (DESIGN §2, §5): an index built once, paths, siblings,
 * common ancestors, the abandoned part of a switch and where a switch lands.
 *
 * Everything is iterative (a 10,000-entry path must not overflow the stack) and tolerant of bad
 * data: a cycle or a parent that is not in the index ends a walk instead of looping forever.
 * No I/O here, and nothing is mutated: entries are append-only, children are derived.
 */
import { type Entry, messageText } from "./entries";
import { compareIds, type EntryId } from "./ids";

export type TreeIndex = {
  readonly byId: ReadonlyMap<EntryId, Entry>;
  /** Children per parent id, oldest first (createdAt, then id). Leaves have no key. */
  readonly childrenOf: ReadonlyMap<EntryId, readonly Entry[]>;
  /**
   * Entries with no parent, oldest first; entries whose parent is missing from the index
   * (dangling) are listed here too, so every entry outside a cycle is reachable from a root.
   */
  readonly roots: readonly Entry[];
};

const NO_ENTRIES: readonly Entry[] = Object.freeze([]);

/** Oldest first: createdAt, then id (ids are UUIDv7, so this is creation order too). */
export function compareEntries(a: Entry, b: Entry): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return compareIds(a.id, b.id);
}

/** Builds the index in O(n log n). If two entries share an id, the later one in the input wins. */
export function buildTreeIndex(entries: Iterable<Entry>): TreeIndex {
  const builder = treeIndexBuilder();
  builder.add(entries);
  return builder.index();
}

/** An index built a part at a time: `add` the entries as they arrive, then take the `index`. */
export type TreeIndexBuilder = { add(entries: Iterable<Entry>): void; index(): TreeIndex };

/**
 * An index built as a big chat's tree arrives in parts, each part's work done when it comes (the
 * whole 10,000-entry index at once was a ~25 ms step of the page's thread). `index()`, called
 * once, equals `buildTreeIndex` of everything added, in order.
 */
export function treeIndexBuilder(): TreeIndexBuilder {
  const byId = new Map<EntryId, Entry>();
  // By parent id, including parents not (yet) seen: their children become roots at the end.
  const childrenOf = new Map<EntryId, Entry[]>();
  // Entries with no parent or one not seen when they came (few: a parent is usually older, so
  // read first); only they can be roots, and only the parents missed can be missing at the end.
  const rootsMaybe: Entry[] = [];
  const parentsMissed = new Set<EntryId>();
  let repeated = false;
  return {
    add(entries) {
      for (const e of entries) {
        if (byId.has(e.id)) repeated = true;
        byId.set(e.id, e);
        const parentId = e.parentId;
        if (parentId === null || !byId.has(parentId)) {
          rootsMaybe.push(e);
          if (parentId === null) continue;
          parentsMissed.add(parentId);
        }
        const list = childrenOf.get(parentId);
        if (list) list.push(e);
        else childrenOf.set(parentId, [e]);
      }
    },
    index() {
      // An entry replaced by a later one of the same id is still in its parent's list: start over
      // from the winners (rare: an import).
      if (repeated) return buildTreeIndex(byId.values());
      const roots = rootsMaybe.filter((e) => e.parentId === null || !byId.has(e.parentId));
      for (const parentId of parentsMissed) if (!byId.has(parentId)) childrenOf.delete(parentId);
      for (const list of childrenOf.values()) if (list.length > 1) list.sort(compareEntries);
      roots.sort(compareEntries);
      return { byId, childrenOf, roots };
    },
  };
}

/**
 * The index of `index`'s entries plus `added`, without rebuilding it: what changes is the new
 * entries' parents' child lists (and the roots, for a new root). A send in a 20,000-entry
 * chat rebuilt the whole index at every append (its user message, the reply): ~50 ms each on the
 * page's thread. Equal to `buildTreeIndex([...entries, ...added])`; built afresh when an added
 * entry replaces one of the same id or is the missing parent of a dangling root (rare: an import).
 */
export function extendTreeIndex(index: TreeIndex, added: readonly Entry[]): TreeIndex {
  if (added.length === 0) return index;
  const danglingParents = new Set<EntryId>();
  for (const root of index.roots) if (root.parentId !== null) danglingParents.add(root.parentId);
  if (added.some((e) => index.byId.has(e.id) || danglingParents.has(e.id)))
    return buildTreeIndex([...index.byId.values(), ...added]);
  // The later of two added entries with one id wins, as in buildTreeIndex.
  const fresh = new Map<EntryId, Entry>();
  for (const e of added) fresh.set(e.id, e);
  const byId = new Map(index.byId);
  for (const e of fresh.values()) byId.set(e.id, e);
  const childrenOf = new Map(index.childrenOf);
  const changed = new Set<EntryId>();
  let roots: Entry[] | null = null;
  for (const e of fresh.values()) {
    if (e.parentId === null || !byId.has(e.parentId)) {
      roots ??= [...index.roots];
      roots.push(e);
      continue;
    }
    const list = changed.has(e.parentId)
      ? (childrenOf.get(e.parentId) as Entry[])
      : [...(childrenOf.get(e.parentId) ?? [])];
    list.push(e);
    childrenOf.set(e.parentId, list);
    changed.add(e.parentId);
  }
  for (const id of changed) (childrenOf.get(id) as Entry[]).sort(compareEntries);
  roots?.sort(compareEntries);
  return { byId, childrenOf, roots: roots ?? index.roots };
}

type PathProblem =
  | { kind: "missing_leaf"; at: EntryId }
  /** `at` names the entry whose parent is not in the index; the path starts at `at`. */
  | { kind: "dangling_parent"; at: EntryId; parentId: EntryId }
  /** `at` is the first entry met twice; the path holds each entry of the walk once. */
  | { kind: "cycle"; at: EntryId };

export type PathWalk = { path: Entry[]; problem: PathProblem | null };

/** The path from the root to `leafId` (root first), and what stopped the walk early, if anything. */
export function walkToRoot(index: TreeIndex, leafId: EntryId): PathWalk {
  const leaf = index.byId.get(leafId);
  if (!leaf) return { path: [], problem: { kind: "missing_leaf", at: leafId } };
  const reversed: Entry[] = [];
  const seen = new Set<EntryId>();
  let problem: PathProblem | null = null;
  let current: Entry | undefined = leaf;
  while (current) {
    if (seen.has(current.id)) {
      problem = { kind: "cycle", at: current.id };
      break;
    }
    seen.add(current.id);
    reversed.push(current);
    const parentId: EntryId | null = current.parentId;
    if (parentId === null) break;
    const parent = index.byId.get(parentId);
    if (!parent) {
      problem = { kind: "dangling_parent", at: current.id, parentId };
      break;
    }
    current = parent;
  }
  return { path: reversed.reverse(), problem };
}

/**
 * The entries from the root to `leafId`, root first. An unknown leaf gives `[]`; a dangling parent
 * or a cycle ends the path where the walk stopped (see `walkToRoot` to learn which happened).
 */
export function pathToRoot(index: TreeIndex, leafId: EntryId): Entry[] {
  return walkToRoot(index, leafId).path;
}

/** The children of `id`, oldest first (`[]` for a leaf or an unknown id). */
export function childrenOf(index: TreeIndex, id: EntryId): readonly Entry[] {
  return index.childrenOf.get(id) ?? NO_ENTRIES;
}

export type Siblings = {
  /** The entry and its siblings, oldest first: the "versions" of that point in the conversation. */
  siblings: readonly Entry[];
  /** 1-based position of the entry among `siblings`; 0 if the id is unknown. */
  position: number;
};

/** The versions of an entry: the children of its parent (the roots, for a root), itself included. */
export function siblingsOf(index: TreeIndex, id: EntryId): Siblings {
  const entry = index.byId.get(id);
  if (!entry) return { siblings: NO_ENTRIES, position: 0 };
  const siblings =
    entry.parentId !== null && index.byId.has(entry.parentId) ? childrenOf(index, entry.parentId) : index.roots;
  return { siblings, position: siblings.findIndex((s) => s.id === id) + 1 };
}

/**
 * The deepest entry that is an ancestor-or-self of both `a` and `b`, or null if they share none
 * (different roots, unknown ids).
 */
export function commonAncestor(index: TreeIndex, a: EntryId, b: EntryId): EntryId | null {
  const onA = new Set(walkToRoot(index, a).path.map((e) => e.id));
  const pathB = walkToRoot(index, b).path;
  for (let i = pathB.length - 1; i >= 0; i--) {
    const id = pathB[i]?.id;
    if (id !== undefined && onA.has(id)) return id;
  }
  return null;
}

/**
 * Follows the newest child down from `id` to a leaf: where the conversation lands when the user
 * switches to another version of a message. Returns `id` itself for a leaf (or an unknown id).
 */
export function deepestLeafFrom(index: TreeIndex, id: EntryId): EntryId {
  let current = id;
  const seen = new Set<EntryId>([id]);
  for (;;) {
    const kids = index.childrenOf.get(current);
    const newest = kids?.[kids.length - 1];
    if (!newest || seen.has(newest.id)) return current;
    seen.add(newest.id);
    current = newest.id;
  }
}

/**
 * What a switch leaves behind (DESIGN §5): the entries on the old leaf's path strictly below the
 * deepest common ancestor of the old leaf and the new position, root first. With no new position
 * (switching to a root user message), the whole old path is abandoned. `[]` if nothing is.
 */
export function abandonedPath(index: TreeIndex, oldLeaf: EntryId | null, newPosition: EntryId | null): Entry[] {
  if (oldLeaf === null) return [];
  const oldPath = walkToRoot(index, oldLeaf).path;
  if (newPosition === null) return oldPath;
  const ancestor = commonAncestor(index, oldLeaf, newPosition);
  if (ancestor === null) return oldPath;
  const at = oldPath.findIndex((e) => e.id === ancestor);
  return oldPath.slice(at + 1);
}

export type SwitchTarget = {
  /** The new leaf position; null = before the first message (the target was a root user message). */
  position: EntryId | null;
  /** Set when the target is a user message: its text goes back into the composer. */
  composerText?: string;
};

/**
 * Where "Switch here" / "Branch from here" on `targetId` lands (DESIGN §5): a user message moves
 * the leaf to its parent and returns its text for the composer (so it can be edited and re-sent);
 * anything else becomes the position itself. When `targetId` is the current `leafId` there is
 * nothing to do: the position is the leaf, unchanged. Null for an unknown id.
 */
export function switchTarget(index: TreeIndex, targetId: EntryId, leafId?: EntryId | null): SwitchTarget | null {
  const target = index.byId.get(targetId);
  if (!target) return null;
  if (targetId === leafId) return { position: targetId };
  if (target.type === "message" && target.role === "user") {
    const parentId = target.parentId !== null && index.byId.has(target.parentId) ? target.parentId : null;
    return { position: parentId, composerText: messageText(target.content) };
  }
  return { position: targetId };
}
