import { childrenOf, deepestLeafFrom, pathToRoot } from "../../core/session/tree";
import { returnToLatest } from "../../state/app/lazy";
import type { SessionView } from "../hooks";

/**
 * Shown when the open position has later entries below it (after Branch from here): says that the
 * next message starts a new version, and offers the way back. Without it the later exchange would
 * be unreachable until something was sent.
 */
export function BranchPoint({ view }: { view: SessionView }) {
  const session = view.session;
  const leafId = session?.leafId ?? null;
  if (!session || leafId === null || childrenOf(view.index, leafId).length === 0) return null;
  // Only messages count: below an undone compaction there is nothing to go back to (issue 27), and
  // "Back to latest" would silently re-apply it.
  const below = pathToRoot(view.index, deepestLeafFrom(view.index, leafId)).slice(view.path.length);
  const later = below.filter((e) => e.type === "message").length;
  if (later === 0) return null;
  return (
    <div className="branch-point" role="status">
      <span>
        Branching from here: your next message starts a new version. The {later} later{" "}
        {later === 1 ? "message is" : "messages are"} kept.
      </span>
      <button type="button" onClick={() => void returnToLatest(session.id, leafId)}>
        Back to latest
      </button>
    </div>
  );
}
