/**
 * What the end-of-chat notice says (issue 11, "see what just happened"): a compaction, a branch
 * summary or a handoff is often drawn far above the end of the chat (a compaction at its cut), so
 * the result is named where the user is looking. The notice belongs to the newest entry: it shows
 * while that entry is the leaf and nothing hangs below it, and goes as soon as anything is sent.
 * Pure: no React.
 */
import type { BranchSummaryEntry, CompactionEntry, HandoffEntry, Session } from "../../core/session/entries";
import { childrenOf, type TreeIndex } from "../../core/session/tree";

export type EndNotice =
  | { kind: "compaction"; entry: CompactionEntry }
  | { kind: "branch_summary"; entry: BranchSummaryEntry }
  | { kind: "handoff"; entry: HandoffEntry };

export function endNotice(session: Session | undefined, index: TreeIndex): EndNotice | null {
  const leafId = session?.leafId;
  if (!leafId || childrenOf(index, leafId).length > 0) return null;
  const entry = index.byId.get(leafId);
  switch (entry?.type) {
    case "compaction":
      return { kind: "compaction", entry };
    case "branch_summary":
      return { kind: "branch_summary", entry };
    case "handoff":
      return { kind: "handoff", entry };
    default:
      return null;
  }
}
