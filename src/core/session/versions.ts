/**
 * The versions ‹ n / m › of an entry (issue 27): its siblings, less the attempts that never became
 * a reply: one that failed or was stopped before any content. A retry that then succeeds replaces
 * the failed attempt on screen (the entry stays in the tree and the graph; append-only).
 */
import type { Entry } from "./entries";
import type { EntryId } from "./ids";
import { hasContent } from "./plan-context";
import { type Siblings, siblingsOf, type TreeIndex } from "./tree";

/** A reply that failed or was stopped before anything arrived. */
function isEmptyAttempt(entry: Entry): boolean {
  return (
    entry.type === "message" &&
    entry.role === "assistant" &&
    (entry.status === "error" || entry.status === "stopped") &&
    !hasContent(entry.content)
  );
}

/** The entry's versions and its position among them; the entry itself always counts. */
export function versionsOf(index: TreeIndex, id: EntryId): Siblings {
  const { siblings } = siblingsOf(index, id);
  const versions = siblings.filter((s) => s.id === id || !isEmptyAttempt(s));
  return { siblings: versions, position: versions.findIndex((s) => s.id === id) + 1 };
}
