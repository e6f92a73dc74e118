import { useLiveQuery } from "dexie-react-hooks";
import "./end-notice.css";
import type { EntryId, SessionId } from "../../core/session/ids";
import { liveSession } from "../../db/live";
import { openSession } from "../../state/sessions/sessions";
import { showInChat } from "../graph/graph-actions";
import type { EndNotice as Notice } from "./end-notice";
import { formatTokens } from "./maintenance-text";

function ShowSummary({ entryId, label = "Show summary" }: { entryId: EntryId; label?: string }) {
  return (
    <button type="button" className="link-button" onClick={() => showInChat(entryId)}>
      {label}
    </button>
  );
}

function FromChat({ sessionId }: { sessionId: SessionId }) {
  // null: the old chat is not in this browser any more.
  const from = useLiveQuery(async () => (await liveSession(sessionId)) ?? null, [sessionId]);
  if (!from) return <span>Continues from an earlier chat</span>;
  return (
    <span>
      Continues from{" "}
      <a
        className="session-link"
        href={`#/s/${encodeURIComponent(from.id)}`}
        onClick={(e) => {
          e.preventDefault();
          openSession(from.id);
        }}
      >
        {from.title}
      </a>
    </span>
  );
}

/**
 * The line at the end of the chat naming what just happened (end-notice.ts), with a button that
 * scrolls its card into view and outlines it. Drawn below the scrolling list, so it is in view
 * whatever the scroll position. Shown by its stand-in (lazy-chat.tsx) when there is a notice.
 */
export function EndNotice({ notice }: { notice: Notice }) {
  return (
    <div className="end-notice" role="status" aria-label="Latest result">
      {notice.kind === "compaction" && (
        <span>
          Compacted · {formatTokens(notice.entry.tokensBefore)} → {formatTokens(notice.entry.tokensAfter)} tokens
        </span>
      )}
      {notice.kind === "branch_summary" && <span>Branch summary written</span>}
      {notice.kind === "handoff" && <FromChat sessionId={notice.entry.fromSessionId} />}
      {" · "}
      <ShowSummary entryId={notice.entry.id} label={notice.kind === "handoff" ? "Show handoff" : "Show summary"} />
    </div>
  );
}
