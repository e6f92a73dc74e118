import { assertNever } from "../../core/session/entries";
import { undoableCompaction } from "../../state/maintenance/undo-compaction";
import { RenderBoundary } from "../common/RenderBoundary";
import type { SessionView } from "../hooks";
import { CommandBlock, ContextNoteView, SettingMarker } from "./AgentEntryViews";
import { CompactionCard } from "./CompactionCard";
import type { DisplayRow } from "./display-rows";
import { RowFailed } from "./lazy-chat";
import { MessageItem } from "./MessageItem";
import { BranchSummaryCard, HandoffCard } from "./SummaryCards";

/**
 * One row of the chat (display-rows.ts). A row whose rendering throws (a hostile or unknown entry,
 * input no renderer bounds) shows as a plain error with its text; the rest of the chat renders.
 */
export function EntryView({ row, view }: { row: DisplayRow; view: SessionView }) {
  return (
    <RenderBoundary resetKey={row} fallback={(error) => <RowFailed entry={row.entry} error={error} />}>
      <RowByKind row={row} view={view} />
    </RenderBoundary>
  );
}

/** One row of the chat, by kind. */
function RowByKind({ row, view }: { row: DisplayRow; view: SessionView }) {
  if (row.kind === "compaction") {
    const newest = undoableCompaction(view.session, view.index, row.entry.id) !== null;
    return <CompactionCard entry={row.entry} latest={row.latest} newest={newest} pinned={row.pinned} />;
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
          pinned={row.pinned === true}
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
