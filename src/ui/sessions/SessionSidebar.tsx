import { useLiveQuery } from "dexie-react-hooks";
import { useDeferredValue, useState } from "react";
import type { Session } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { liveSearch, liveSessions } from "../../db/live";
import { deleteSession, newChat, openSession, renameSession } from "../../state/actions/sessions";
import { ImportControls } from "./ImportControls";

export function SessionSidebar({ currentId, onNavigate }: { currentId: SessionId | null; onNavigate: () => void }) {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query.trim());
  const sessions = useLiveQuery(liveSessions, []) ?? [];
  const matches = useLiveQuery(() => (deferred ? liveSearch(deferred) : null), [deferred]);
  const visible = matches ? sessions.filter((s) => matches.includes(s.id)) : sessions;

  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-head">
        <div className="brand">
          <img src="/grove.svg" alt="" width={22} height={22} />
          <span>Grove</span>
        </div>
        <button
          type="button"
          className="primary"
          onClick={() => {
            newChat();
            onNavigate();
          }}
        >
          New chat
        </button>
      </div>
      <div className="sidebar-tools">
        <ImportControls />
      </div>
      <input
        className="search"
        type="search"
        placeholder="Search chats"
        aria-label="Search chats"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="session-list">
        {visible.map((s) => (
          <SessionRow
            key={s.id}
            session={s}
            current={s.id === currentId}
            onOpen={() => {
              openSession(s.id);
              onNavigate();
            }}
          />
        ))}
        {visible.length === 0 && <li className="muted empty">{deferred ? "No chats match." : "No chats yet."}</li>}
      </ul>
      <p className="sidebar-foot muted">Stored only in this browser.</p>
    </nav>
  );
}

function SessionRow({ session, current, onOpen }: { session: Session; current: boolean; onOpen: () => void }) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [draft, setDraft] = useState(session.title);

  if (mode === "rename") {
    return (
      <li className="session-row editing">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void renameSession(session.id, draft);
            setMode("view");
          }}
        >
          <input
            aria-label="Chat title"
            value={draft}
            autoFocus
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && setMode("view")}
          />
          <button type="submit">Save</button>
        </form>
      </li>
    );
  }
  if (mode === "confirm-delete") {
    return (
      <li className="session-row confirm">
        <span>Delete “{session.title}”? This cannot be undone.</span>
        <div className="row-actions">
          <button type="button" className="danger" onClick={() => void deleteSession(session.id)}>
            Delete
          </button>
          <button type="button" onClick={() => setMode("view")}>
            Cancel
          </button>
        </div>
      </li>
    );
  }
  return (
    <li className={`session-row ${current ? "current" : ""}`}>
      <a
        href={`#/s/${encodeURIComponent(session.id)}`}
        aria-current={current ? "page" : undefined}
        onClick={(e) => {
          e.preventDefault();
          onOpen();
        }}
      >
        <span className="session-title">{session.title}</span>
        <span className="session-date">{new Date(session.updatedAt).toLocaleDateString()}</span>
      </a>
      <div className="row-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`Rename ${session.title}`}
          title="Rename"
          onClick={() => {
            setDraft(session.title);
            setMode("rename");
          }}
        >
          ✎
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={`Delete ${session.title}`}
          title="Delete"
          onClick={() => setMode("confirm-delete")}
        >
          <TrashIcon />
        </button>
      </div>
    </li>
  );
}

/** Drawn, not an emoji: without an emoji font (many Linux setups) "🗑" is an empty box. */
function TrashIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="icon">
      <path
        d="M6 2h4M2.5 4h11M4 4l.7 9.2a1 1 0 0 0 1 .8h4.6a1 1 0 0 0 1-.8L12 4M6.5 6.5v5M9.5 6.5v5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
