import { useVirtualizer } from "@tanstack/react-virtual";
import { useLiveQuery } from "dexie-react-hooks";
import { useMemo, useRef, useState } from "react";
import type { Session } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { liveSessions } from "../../db/live";
import { archiveSession, pinSession } from "../../state/sessions/session-list";
import { deleteSession, newChat, openSession, renameSession } from "../../state/sessions/sessions";
import { measureInView, useAfterFirstPaint } from "../common/virtual-measure";
import { ChatSearch } from "./ChatSearch";
import { groupByDate } from "./date-groups";
import { ImportControls } from "./ImportControls";
import { BulkDeleteBar } from "./lazy-sessions";
import { ArchiveIcon, PinIcon, RestoreIcon, TrashIcon } from "./session-icons";
import { splitPart } from "./title-part";
import "./session-list.css";
import { formatTime } from "../../core/time";

type ListView = "chats" | "archived";

export function SessionSidebar({ currentId, onNavigate }: { currentId: SessionId | null; onNavigate: () => void }) {
  const [view, setView] = useState<ListView>("chats");
  const [selected, setSelected] = useState<ReadonlySet<SessionId> | null>(null);
  const sessions = useLiveQuery(liveSessions, []) ?? [];
  const archivedCount = sessions.reduce((n, s) => n + (s.archived ? 1 : 0), 0);
  const visible = sessions.filter((s) => (view === "archived" ? s.archived : !s.archived));
  const selecting = selected !== null;

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
        <div className="list-tools">
          {view === "archived" ? (
            <>
              <h2 className="list-view-title">Archived chats</h2>
              <button type="button" className="link-button" onClick={() => setView("chats")}>
                Back to chats
              </button>
            </>
          ) : (
            <button
              type="button"
              className="link-button"
              disabled={archivedCount === 0}
              title={archivedCount === 0 ? "Archived chats show here; none yet" : "Chats you archived: restore them"}
              onClick={() => {
                setView("archived");
                setSelected(null);
              }}
            >
              Archived ({archivedCount.toLocaleString()})
            </button>
          )}
          <button
            type="button"
            className="link-button"
            aria-pressed={selecting}
            disabled={!selecting && visible.length === 0}
            onClick={() => setSelected(selecting ? null : new Set())}
          >
            {selecting ? "Done" : "Select"}
          </button>
        </div>
        {selected && (
          <BulkDeleteBar
            selected={selected}
            all={visible.map((s) => s.id)}
            onSelect={setSelected}
            onDone={() => setSelected(null)}
          />
        )}
        <SessionList
          sessions={visible}
          currentId={currentId}
          archived={view === "archived"}
          selected={selected}
          onToggleSelected={(id) =>
            setSelected((sel) => {
              if (!sel) return sel;
              const next = new Set(sel);
              if (next.has(id)) next.delete(id);
              else next.add(id);
              return next;
            })
          }
          empty={view === "archived" ? "No archived chats." : "No chats yet."}
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

type ListRow = { kind: "head"; label: string } | { kind: "chat"; session: Session; position: number };

/**
 * The list is virtualized: an imported ChatGPT history is thousands of chats, and rendering every
 * row on each change (an import writes batch after batch) would stall the page. Rows are measured,
 * since rename and delete-confirm rows are taller; aria-setsize/posinset keep the count right for
 * screen readers, which only see the rendered rows. Date-group headings are rows of their own.
 */
function SessionList({
  sessions,
  currentId,
  archived,
  selected,
  onToggleSelected,
  empty,
  onOpen,
}: {
  sessions: Session[];
  currentId: SessionId | null;
  archived: boolean;
  selected: ReadonlySet<SessionId> | null;
  onToggleSelected: (id: SessionId) => void;
  empty: string;
  onOpen: (id: SessionId) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo<ListRow[]>(() => {
    const out: ListRow[] = [];
    let position = 0;
    for (const group of groupByDate(sessions, Date.now())) {
      out.push({ kind: "head", label: group.label });
      for (const session of group.items) out.push({ kind: "chat", session, position: position++ });
    }
    return out;
  }, [sessions]);
  const byId = useMemo(() => new Map(sessions.map((s) => [s.id, s])), [sessions]);
  // The scroll box is attached after the page's first paint (ui/common/virtual-measure.ts).
  const afterPaint = useAfterFirstPaint();
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => (afterPaint ? scrollRef.current : null),
    measureElement: measureInView(afterPaint),
    estimateSize: (i) => (rows[i]?.kind === "head" ? HEAD_ESTIMATE_PX : ROW_ESTIMATE_PX),
    overscan: 10,
    getItemKey: (i) => {
      const row = rows[i];
      return row === undefined ? i : row.kind === "head" ? `head:${row.label}` : row.session.id;
    },
  });
  return (
    <div ref={scrollRef} className="session-scroll">
      <ul className="session-list" style={{ height: rows.length ? virtualizer.getTotalSize() : undefined }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          if (row.kind === "head") {
            return (
              <li
                key={`head:${row.label}`}
                className="session-group"
                // A visual divider: inside a list only list items may be read, and each row says its
                // own date, so screen readers skip it (axe: list).
                aria-hidden="true"
                ref={virtualizer.measureElement}
                data-index={item.index}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <h3>{row.label}</h3>
              </li>
            );
          }
          const s = row.session;
          return (
            <SessionRow
              key={s.id}
              session={s}
              part={partOf(s, byId)}
              current={s.id === currentId}
              archived={archived}
              selected={selected ? selected.has(s.id) : null}
              onToggleSelected={() => onToggleSelected(s.id)}
              onOpen={() => onOpen(s.id)}
              row={{
                ref: virtualizer.measureElement,
                index: item.index,
                position: row.position,
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

/**
 * "(part 2)" of a chat continued by a handoff: from its title when the title says it (the handoff
 * names it so), else counted along its parent links (a renamed part still shows its number).
 */
function partOf(session: Session, byId: ReadonlyMap<SessionId, Session>): string | null {
  const fromTitle = splitPart(session.title).part;
  if (fromTitle) return fromTitle;
  if (!session.parentSessionId) return null;
  let n = 1;
  const seen = new Set<SessionId>([session.id]);
  for (let s: Session | undefined = session; s?.parentSessionId && !seen.has(s.parentSessionId); ) {
    seen.add(s.parentSessionId);
    n += 1;
    s = byId.get(s.parentSessionId);
  }
  return `(part ${n})`;
}

const ROW_ESTIMATE_PX = 54;
const HEAD_ESTIMATE_PX = 30;

type RowPlacement = {
  ref: (el: HTMLElement | null) => void;
  /** Among all rows (headings too): the virtualizer's index. */
  index: number;
  /** Among the chats: for aria-posinset. */
  position: number;
  setSize: number;
  top: number;
};

/** The li's place in the virtual list: measured, absolutely positioned, numbered for assistive tech. */
const placed = (row: RowPlacement) => ({
  ref: row.ref,
  "data-index": row.index,
  "aria-setsize": row.setSize,
  "aria-posinset": row.position + 1,
  style: { transform: `translateY(${row.top}px)` },
});

function SessionRow({
  session,
  part,
  current,
  archived,
  selected,
  onToggleSelected,
  onOpen,
  row,
}: {
  session: Session;
  part: string | null;
  current: boolean;
  archived: boolean;
  /** null: not selecting; else whether this row is selected. */
  selected: boolean | null;
  onToggleSelected: () => void;
  onOpen: () => void;
  row: RowPlacement;
}) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm-delete">("view");
  const [draft, setDraft] = useState(session.title);
  const title = splitPart(session.title).base;

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
    <li
      className={`session-row ${current ? "current" : ""}${selected ? " selected" : ""}${session.pinned ? " pinned" : ""}`}
      {...placed(row)}
    >
      {selected !== null && (
        <input
          type="checkbox"
          className="session-select"
          aria-label={`Select ${session.title}`}
          checked={selected}
          onChange={onToggleSelected}
        />
      )}
      <a
        href={`#/s/${encodeURIComponent(session.id)}`}
        aria-current={current ? "page" : undefined}
        onClick={(e) => {
          e.preventDefault();
          if (selected !== null) onToggleSelected();
          else onOpen();
        }}
      >
        <span className="session-title">
          <span className="session-title-base">{title}</span>
          {part && <span className="session-part"> {part}</span>}
        </span>
        <span className="session-date">{formatTime(session.updatedAt, "shortDate")}</span>
      </a>
      {selected === null && (
        <div className="row-actions">
          {!archived && (
            <button
              type="button"
              className="icon-button"
              aria-label={session.pinned ? `Unpin ${session.title}` : `Pin ${session.title}`}
              aria-pressed={Boolean(session.pinned)}
              title={session.pinned ? "Unpin" : "Pin to the top"}
              onClick={() => void pinSession(session.id, !session.pinned)}
            >
              <PinIcon />
            </button>
          )}
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
            aria-label={archived ? `Restore ${session.title}` : `Archive ${session.title}`}
            title={archived ? "Restore to the chat list" : "Archive: hide from the list, keep everything"}
            onClick={() => void archiveSession(session.id, !archived)}
          >
            {archived ? <RestoreIcon /> : <ArchiveIcon />}
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
      )}
    </li>
  );
}
