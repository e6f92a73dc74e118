import { assertNever } from "../../core/session/entries";
import { undoableCompaction } from "../../state/maintenance/undo-compaction";
import type { SessionView } from "../hooks";
import { CommandBlock, ContextNoteView, SettingMarker } from "./AgentEntryViews";
import { CompactionCard } from "./CompactionCard";
import type { DisplayRow } from "./display-rows";
import { MessageItem } from "./MessageItem";
import { BranchSummaryCard, HandoffCard } from "./SummaryCards";

/** One row of the chat (display-rows.ts), by kind. */
export function EntryView({ row, view }: { row: DisplayRow; view: SessionView }) {
  if (row.kind === "compaction") {
    const newest = undoableCompaction(view.session, view.index, row.entry.id) !== null;
    return <CompactionCard entry={row.entry} latest={row.latest} newest={newest} />;
  }
  const { entry } = row;
  const folded = row.visibility === "folded";
  switch (entry.type) {
    case "message":
      return (
        <MessageItem
          entry={entry}
          view={view}
          continuations={row.continuations}
          visibility={row.visibility}
          continuable={row.continuable}
          pruned={row.pruned}
          results={row.results}
        />
      );
    case "branch_summary":
      return <BranchSummaryCard entry={entry} view={view} folded={folded} />;
    case "handoff":
      return <HandoffCard entry={entry} folded={folded} />;
    case "model_change":
    case "thinking_level_change":
      return <SettingMarker entry={entry} />;
    case "context_note":
      return <ContextNoteView entry={entry} folded={folded} />;
    case "command":
      return <CommandBlock entry={entry} folded={folded} />;
    case "custom":
      return null;
    default:
      return assertNever(entry, "entry");
  }
}
