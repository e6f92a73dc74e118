import { assertNever } from "../../core/session/entries";
import type { SessionView } from "../hooks";
import { Markdown } from "../markdown/Markdown";
import { CompactionCard } from "./CompactionCard";
import type { DisplayRow } from "./display-rows";
import { MessageItem } from "./MessageItem";

/** One row of the chat (display-rows.ts), by kind. */
export function EntryView({ row, view }: { row: DisplayRow; view: SessionView }) {
  if (row.kind === "compaction") return <CompactionCard entry={row.entry} latest={row.latest} />;
  const { entry } = row;
  const folded = row.visibility === "folded" ? " vis-folded" : "";
  switch (entry.type) {
    case "message":
      return (
        <MessageItem
          entry={entry}
          view={view}
          continuations={row.continuations}
          visibility={row.visibility}
          continuable={row.continuable}
        />
      );
    case "branch_summary":
      return (
        <article className={`card branch-summary${folded}`} aria-label="Branch summary">
          <div className="card-head">Branch summary · {entry.model}</div>
          <Markdown text={entry.summary} />
        </article>
      );
    case "handoff":
      return (
        <article className={`card handoff${folded}`} aria-label="Handoff">
          <div className="card-head">Handoff document</div>
          <Markdown text={entry.document} />
        </article>
      );
    default:
      return assertNever(entry, "entry");
  }
}
