import type { Entry } from "../../core/session/entries";
import { assertNever } from "../../core/session/entries";
import type { SessionView } from "../hooks";
import { Markdown } from "../markdown/Markdown";
import { MessageItem } from "./MessageItem";

/** One row of the chat, by entry kind. */
export function EntryView({ entry, view }: { entry: Entry; view: SessionView }) {
  switch (entry.type) {
    case "message":
      return <MessageItem entry={entry} view={view} />;
    case "compaction":
      return (
        <article className="card compaction" aria-label={`Compaction summary: ${entry.shortSummary}`}>
          <div className="card-head">
            Compaction · {entry.reason} · {entry.tokensBefore.toLocaleString()} → {entry.tokensAfter.toLocaleString()}{" "}
            tokens · {entry.model}
          </div>
          <Markdown text={entry.summary} />
        </article>
      );
    case "branch_summary":
      return (
        <article className="card branch-summary" aria-label="Branch summary">
          <div className="card-head">Branch summary · {entry.model}</div>
          <Markdown text={entry.summary} />
        </article>
      );
    case "handoff":
      return (
        <article className="card handoff" aria-label="Handoff">
          <div className="card-head">Handoff document</div>
          <Markdown text={entry.document} />
        </article>
      );
    default:
      return assertNever(entry, "entry");
  }
}
