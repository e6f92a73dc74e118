/**
 * The tree the history graph draws: the session's tree, except that on the active path each
 * compaction sits where the chat draws its card — at its cut, right above the first entry it kept
 * (ui/chat/display-rows.ts, from the same `compactionCuts`) — instead of below the newest entry it
 * was written after. Its real children then continue from the entry it was written after.
 *
 * Only the active path is rearranged (the chat shows no other), and nothing is lost: every entry
 * still hangs from exactly one node. Pure: no I/O.
 *
 * @example
 * // path A B C D, compaction X written after D keeping C on: A B X C D (X's children under D)
 * const tree = displayTree(index, path);
 * tree.childrenOf(a.id); // [X]
 */
import type { Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { compactionCuts } from "../session/plan-context";
import type { TreeIndex } from "../session/tree";

export type DisplayTree = {
  readonly roots: readonly Entry[];
  childrenOf(id: EntryId): readonly Entry[];
};

const NONE: readonly Entry[] = Object.freeze([]);
/** The key of the roots' list (no entry has an empty id). */
const ROOTS = "" as EntryId;

export function displayTree(index: TreeIndex, path: readonly Entry[]): DisplayTree {
  const cuts = compactionCuts(path);
  const moves: { compaction: Entry; above: Entry }[] = [];
  path.forEach((e, i) => {
    const start = e.type === "compaction" ? (cuts.get(e.id) ?? i + 1) : i + 1;
    const above = path[start];
    if (start < i && above) moves.push({ compaction: e, above });
  });
  if (moves.length === 0) {
    return { roots: index.roots, childrenOf: (id) => index.childrenOf.get(id) ?? NONE };
  }

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
  const parentOf = (e: Entry): EntryId => hangsFrom.get(e.id) ?? e.parentId ?? ROOTS;

  // Path order: a compaction written after an earlier one that moved hangs from where that one's
  // children went, so its own children follow them there.
  for (const { compaction, above } of moves) {
    const from = parentOf(compaction);
    const siblings = listOf(from);
    const at = siblings.indexOf(compaction);
    const list = listOf(parentOf(above));
    const slot = list.indexOf(above);
    if (at < 0 || slot < 0) continue; // not where the path says: bad data, leave it be
    siblings.splice(at, 1);
    for (const child of listOf(compaction.id)) {
      siblings.push(child);
      hangsFrom.set(child.id, from);
    }
    const over = parentOf(above);
    list[list.indexOf(above)] = compaction;
    hangsFrom.set(compaction.id, over);
    lists.set(compaction.id, [above]);
    hangsFrom.set(above.id, compaction.id);
  }
  return {
    roots: lists.get(ROOTS) ?? index.roots,
    childrenOf: (id) => lists.get(id) ?? index.childrenOf.get(id) ?? NONE,
  };
}
