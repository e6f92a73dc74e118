import { useVirtualizer } from "@tanstack/react-virtual";
import { useLiveQuery } from "dexie-react-hooks";
import { useRef, useState } from "react";
import type { Session } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { liveSessions } from "../../db/live";
import { deleteSession, newChat, openSession, renameSession } from "../../state/actions/sessions";
import { ChatSearch } from "./ChatSearch";
import { ImportControls } from "./ImportControls";

export function SessionSidebar({ currentId, onNavigate }: { currentId: SessionId | null; onNavigate: () => void }) {
  const sessions = useLiveQuery(liveSessions, []) ?? [];

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
      <ChatSearch onNavigate={onNavigate}>
        <SessionList
          sessions={sessions}
          currentId={currentId}
          empty="No chats yet."
          onOpen={(id) => {
            openSession(id);
            onNavigate();
          }}
        />
      </ChatSearch>
      <p className="sidebar-foot muted">Stored only in this browser.</p>
    </nav>
  );
}

/**
 * The list is virtualized: an imported ChatGPT history is thousands of chats, and rendering every
 * row on each change (an import writes batch after batch) would stall the page. Rows are measured,
 * since rename and delete-confirm rows are taller; aria-setsize/posinset keep the count right for
 * screen readers, which only see the rendered rows.
 */
function SessionList({
  sessions,
  currentId,
  empty,
  onOpen,
}: {
  sessions: Session[];
  currentId: SessionId | null;
  empty: string;
  onOpen: (id: SessionId) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: sessions.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 10,
    getItemKey: (i) => sessions[i]?.id ?? i,
  });
  return (
    <div ref={scrollRef} className="session-scroll">
      <ul className="session-list" style={{ height: sessions.length ? virtualizer.getTotalSize() : undefined }}>
        {virtualizer.getVirtualItems().map((item) => {
          const s = sessions[item.index]!;
          return (
            <SessionRow
              key={s.id}
              session={s}
              current={s.id === currentId}
              onOpen={() => onOpen(s.id)}
              row={{
                ref: virtualizer.measureElement,
                index: item.index,
                setSize: sessions.length,
                top: item.start,
              }}
            />
          );
        })}
        {sessions.length === 0 && <li className="muted empty">{empty}</li>}
      </ul>
    </div>
  );
}

const ROW_ESTIMATE_PX = 54;

type RowPlacement = { ref: (el: HTMLElement | null) => void; index: number; setSize: number; top: number };

/** The li's place in the virtual list: measured, absolutely positioned, numbered for assistive tech. */
const placed = (row: RowPlacement) => ({
  ref: row.ref,
  "data-index": row.index,
  "aria-setsize": row.setSize,
  "aria-posinset": row.index + 1,
  style: { transform: `translateY(${row.top}px)` },
});

function SessionRow({
  session,
  current,
  onOpen,
  row,
}: {
  session: Session;
  current: boolean;
  onOpen: () => void;
  row: RowPlacement;
}) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [draft, setDraft] = useState(session.title);

  if (mode === "rename") {
    return (
      <li className="session-row editing" {...placed(row)}>
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
      <li className="session-row confirm" {...placed(row)}>
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
    <li className={`session-row ${current ? "current" : ""}`} {...placed(row)}>
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
