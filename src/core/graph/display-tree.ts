/**
 * The tree the history graph draws: the session's tree, except that each compaction sits where
 * the chat draws its card — at its cut, right above the first entry it kept (ui/chat/display-rows.ts
 * and plan-context's `compactionCuts`: the kept region starts at `firstKeptEntryId` when that is on
 * the compaction's own path before it) — instead of below the newest entry it was written after.
 * Its real children then continue from the entry it was written after (its "anchor": where you are
 * when the compaction is the leaf, since the chat's last row is that entry).
 *
 * Every compaction is moved, on every branch, whichever branch is current: the tree drawn depends
 * on the entries only, never on the leaf, so switching branches moves no node (issue 27 item 4).
 * Two compactions on different branches that kept the same entry cannot both sit above it: the
 * older one does, the other stays where it was written. Nothing is lost: every entry still hangs
 * from exactly one node. Pure: no I/O.
 *
 * @example
 * // path A B C D, compaction X written after D keeping C on: A B X C D (X's children under D)
 * const tree = displayTree(index);
 * tree.childrenOf(a.id); // [X]
 * tree.anchorOf(x.id); // D
 */
import type { CompactionEntry, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { compareEntries, type TreeIndex } from "../session/tree";

export type DisplayTree = {
  readonly roots: readonly Entry[];
  childrenOf(id: EntryId): readonly Entry[];
  /**
   * Where an entry's children are drawn from: for a compaction moved to its cut, the entry it was
   * written after; else the entry itself.
   */
  anchorOf(id: EntryId): EntryId;
};

const NONE: readonly Entry[] = Object.freeze([]);
/** The key of the roots' list (no entry has an empty id). */
const ROOTS = "" as EntryId;

/**
 * The entry above which compaction `c` is drawn (its first kept entry when that is a proper ancestor
 * of `c`), and the ancestors passed on the way up to it (cycle-safe); null when it stays put.
 */
function cutOf(index: TreeIndex, c: CompactionEntry): { above: Entry; between: ReadonlySet<EntryId> } | null {
  if (c.firstKeptEntryId === null) return null;
  const between = new Set<EntryId>([c.id]);
  for (let x = parentOf(index, c); x && !between.has(x.id); x = parentOf(index, x)) {
    if (x.id === c.firstKeptEntryId) return { above: x, between };
    between.add(x.id);
  }
  return null;
}

const parentOf = (index: TreeIndex, e: Entry): Entry | undefined =>
  e.parentId !== null ? index.byId.get(e.parentId) : undefined;

export function displayTree(index: TreeIndex): DisplayTree {
  const compactions: CompactionEntry[] = [];
  for (const e of index.byId.values()) if (e.type === "compaction") compactions.push(e);
  const plain: DisplayTree = {
    roots: index.roots,
    childrenOf: (id) => index.childrenOf.get(id) ?? NONE,
    anchorOf: (id) => id,
  };
  if (compactions.length === 0) return plain;
  // Oldest first: a compaction is always newer than the compactions on its path, so a later one
  // written below an earlier one that moved finds that one's children where they went.
  compactions.sort(compareEntries);

  // Child lists that differ from the index's, copied on first change.
  const lists = new Map<EntryId, Entry[]>();
  const listOf = (id: EntryId): Entry[] => {
    let list = lists.get(id);
    if (!list) {
      list = [...(id === ROOTS ? index.roots : (index.childrenOf.get(id) ?? NONE))];
      lists.set(id, list);
    }
    return list;
  };
  // Where an entry hangs now, when it was moved.
  const hangsFrom = new Map<EntryId, EntryId>();
  const parentIdOf = (e: Entry): EntryId => hangsFrom.get(e.id) ?? e.parentId ?? ROOTS;
  const anchors = new Map<EntryId, EntryId>();

  for (const compaction of compactions) {
    const cut = cutOf(index, compaction);
    if (!cut) continue;
    const { above, between } = cut;
    const over = parentIdOf(above);
    // Another branch's compaction already sits above this entry: this one stays where it was written.
    if (anchors.has(over) && !between.has(over)) continue;
    const from = parentIdOf(compaction);
    const siblings = listOf(from);
    const at = siblings.indexOf(compaction);
    const list = listOf(over);
    const slot = list.indexOf(above);
    if (at < 0 || slot < 0 || from === ROOTS) continue; // not where the index says: bad data, leave it be
    siblings.splice(at, 1);
    for (const child of listOf(compaction.id)) {
      siblings.push(child);
      hangsFrom.set(child.id, from);
    }
    list[list.indexOf(above)] = compaction;
    hangsFrom.set(compaction.id, over);
    lists.set(compaction.id, [above]);
    hangsFrom.set(above.id, compaction.id);
    anchors.set(compaction.id, from);
  }
  if (anchors.size === 0) return plain;
  return {
    roots: lists.get(ROOTS) ?? index.roots,
    childrenOf: (id) => lists.get(id) ?? index.childrenOf.get(id) ?? NONE,
    anchorOf: (id) => anchors.get(id) ?? id,
  };
}
