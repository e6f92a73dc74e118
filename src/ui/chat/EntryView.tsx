import { assertNever } from "../../core/session/entries";
import { RenderBoundary } from "../common/RenderBoundary";
import type { SessionView } from "../hooks";
import type { DisplayRow } from "./display-rows";
import { RowFailed } from "./lazy-chat";
import {
  BranchSummaryCard,
  CommandBlock,
  CompactionRow,
  ContextNoteView,
  HandoffCard,
  SettingMarker,
} from "./lazy-rows";
import { MessageItem } from "./MessageItem";

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
  if (row.kind === "compaction") return <CompactionRow row={row} view={view} />;
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
          passages={row.passages}
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
