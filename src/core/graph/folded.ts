/**
 * Folded spans (DESIGN §4.2, §6): which entries each compaction folded into its summary, so the
 * graph can shade them. Walks up the tree from each compaction, iteratively and cycle-safe.
 * Pure: no I/O.
 */
import type { CompactionEntry, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import type { TreeIndex } from "../session/tree";

/**
 * The entries each compaction folded, by compaction id (see CompactionInfo.folded). Walks up from
 * each compaction: past its kept region (up to its first kept entry), then collects until the
 * previous compaction's first kept entry (which that one kept and this one folds; the previous
 * compaction itself when it kept nothing) or the root.
 */
export function foldedSpans(index: TreeIndex): Map<EntryId, EntryId[]> {
  const parentOf = (e: Entry): Entry | undefined => (e.parentId !== null ? index.byId.get(e.parentId) : undefined);
  const stopOf = (c: CompactionEntry): EntryId => c.firstKeptEntryId ?? c.id;
  const spans = new Map<EntryId, EntryId[]>();
  for (const entry of index.byId.values()) {
    if (entry.type !== "compaction") continue;
    const seen = new Set<EntryId>([entry.id]);
    let stopAt: EntryId | undefined;
    let current = parentOf(entry);
    // 1. The kept region, from the compaction up to its first kept entry: not folded.
    if (entry.firstKeptEntryId !== null) {
      const kept: EntryId[] = [];
      let walker = current;
      let found = false;
      while (walker && !seen.has(walker.id)) {
        seen.add(walker.id);
        kept.push(walker.id);
        if (walker.type === "compaction" && stopAt === undefined) stopAt = stopOf(walker);
        if (walker.id === entry.firstKeptEntryId) {
          found = true;
          break;
        }
        walker = parentOf(walker);
      }
      if (found && walker) {
        // The previous compaction's own cut lies inside our kept region: nothing new was folded.
        if (stopAt !== undefined && kept.includes(stopAt)) {
          spans.set(entry.id, []);
          continue;
        }
        current = parentOf(walker);
      } else {
        // The first kept entry is not on the path (bad data): as the chat does, everything above
        // the compaction counts as folded.
        for (const id of kept) seen.delete(id);
        stopAt = undefined;
      }
    }
    // 2. The folded region (collected newest first while walking up).
    const folded: EntryId[] = [];
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      folded.push(current.id);
      if (current.type === "compaction" && stopAt === undefined) stopAt = stopOf(current);
      if (current.id === stopAt) break;
      current = parentOf(current);
    }
    spans.set(entry.id, folded.reverse());
  }
  return spans;
}
