/**
 * Folded spans (DESIGN §4.2, §6): which entries each compaction folded into its summary, so the
 * graph can shade them. Each span is the context plan's folded span (core/session/plan-context.ts)
 * of the path from the root to that compaction: from where the previous compaction's kept region
 * started (the previous compaction itself when it kept nothing) up to the compaction's own kept
 * region. Pure: no I/O.
 */
import type { EntryId } from "../session/ids";
import { planContext } from "../session/plan-context";
import { type TreeIndex, walkToRoot } from "../session/tree";

/** The entries each compaction folded, by compaction id, root side first (see CompactionInfo.folded). */
export function foldedSpans(index: TreeIndex): Map<EntryId, EntryId[]> {
  const spans = new Map<EntryId, EntryId[]>();
  for (const entry of index.byId.values()) {
    if (entry.type !== "compaction") continue;
    // Cycle-safe; a broken parent link ends the path where the walk stopped.
    const { path } = walkToRoot(index, entry.id);
    const plan = planContext(path);
    spans.set(
      entry.id,
      path.slice(plan.foldedStart, plan.foldedEnd).map((e) => e.id),
    );
  }
  return spans;
}
