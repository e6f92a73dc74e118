/**
 * Folded spans (DESIGN §4.2, §6): which entries each compaction folded into its summary, so the
 * graph can shade them. Each span is the context plan's folded span (core/session/plan-context.ts)
 * of the path from the root to that compaction: from where the previous compaction's kept region
 * started (the previous compaction itself when it kept nothing) up to the compaction's own kept
 * region. Pure: no I/O.
 */
import type { CompactionEntry, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { planContext } from "../session/plan-context";
import type { TreeIndex } from "../session/tree";

/**
 * The lower part of the path to `c` the plan needs: walking up (cycle-safe) until the previous
 * compaction and both compactions' first kept entries are passed, else to the root. Every id the
 * plan looks up is then on it, so it plans exactly as the whole path would, in time proportional
 * to the span rather than to the depth.
 */
function pathNeededFor(index: TreeIndex, c: CompactionEntry): Entry[] {
  const up: Entry[] = [c];
  const seen = new Set<EntryId>([c.id]);
  let foundOwn = c.firstKeptEntryId === null;
  let previous: CompactionEntry | null = null;
  let foundPrevious = false;
  for (let x = parentOf(index, c); x && !seen.has(x.id); x = parentOf(index, x)) {
    seen.add(x.id);
    up.push(x);
    if (x.id === c.firstKeptEntryId) foundOwn = true;
    if (previous === null) {
      if (x.type === "compaction") {
        previous = x;
        foundPrevious = x.firstKeptEntryId === null;
      }
    } else if (x.id === previous.firstKeptEntryId) foundPrevious = true;
    if (foundOwn && foundPrevious) break;
  }
  return up.reverse();
}

const parentOf = (index: TreeIndex, e: Entry): Entry | undefined =>
  e.parentId !== null ? index.byId.get(e.parentId) : undefined;

/** The entries each compaction folded, by compaction id, root side first (see CompactionInfo.folded). */
export function foldedSpans(index: TreeIndex): Map<EntryId, EntryId[]> {
  const spans = new Map<EntryId, EntryId[]>();
  for (const entry of index.byId.values()) {
    if (entry.type !== "compaction") continue;
    const path = pathNeededFor(index, entry);
    const plan = planContext(path);
    spans.set(
      entry.id,
      path.slice(plan.foldedStart, plan.foldedEnd).map((e) => e.id),
    );
  }
  return spans;
}
