import { undoableCompaction } from "../../state/maintenance/undo-compaction";
import type { SessionView } from "../hooks";
import { CompactionCard } from "./CompactionCard";
import type { DisplayRow } from "./display-rows";

/** A compaction row: its card, with Undo offered on the newest compaction of the path only. */
export function CompactionRow({ row, view }: { row: Extract<DisplayRow, { kind: "compaction" }>; view: SessionView }) {
  const newest = undoableCompaction(view.session, view.index, row.entry.id) !== null;
  return (
    <CompactionCard entry={row.entry} latest={row.latest} newest={newest} pinned={row.pinned} passages={row.passages} />
  );
}
