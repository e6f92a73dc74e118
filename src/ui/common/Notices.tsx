import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { dismissNotice, type Notice, useUiStore } from "../../state/app/ui-store";
import { redoCompactionFromNotice } from "../../state/maintenance/undo-compaction";

/** How long a notice that is not an error stays (ms): long enough to read it, and its button. */
const SHOW_MS = 6_000;
const SHOW_WITH_ACTION_MS = 10_000;
const MS_PER_WORD = 300;

function showFor(notice: Notice): number {
  const reading = notice.text.split(/\s+/).length * MS_PER_WORD;
  return Math.max(notice.action ? SHOW_WITH_ACTION_MS : SHOW_MS, reading);
}
/** The newest notices shown; older ones fold into "n more". */
const SHOWN = 3;

/**
 * Action failures and info in plain words; errors are announced to screen readers. Drawn in
 * document.body and exempt from a modal's inertness (common/inert-behind.ts): a failure while a
 * dialog is open must still be read out and dismissable.
 *
 * Issue 27: everything but an error goes by itself (not while pointed at or focused); the same
 * words again are one line with a count; the stack sits just above the composer, in room the chat
 * gives up (`--notices-height`, the chat's `.notice-room`), so it never covers a message.
 */
export function Notices() {
  const notices = useUiStore((s) => s.notices);
  const [expanded, setExpanded] = useState(false);
  const box = useNoticeRoom(notices.length > 0);
  if (notices.length === 0) return null;
  const shown = expanded ? notices : notices.slice(-SHOWN);
  const folded = notices.length - shown.length;
  return createPortal(
    <div className="notices" data-modal-exempt="" ref={box}>
      {folded > 0 && (
        <button type="button" className="notices-more" onClick={() => setExpanded(true)}>
          {folded} more {folded === 1 ? "notice" : "notices"}
        </button>
      )}
      {shown.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>,
    document.body,
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (notice.kind === "error" || held) return;
    const timer = setTimeout(() => dismissNotice(notice.id), showFor(notice));
    return () => clearTimeout(timer);
  }, [notice, held]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only hold the timer; the buttons inside are the controls
    <div
      className={`notice notice-${notice.kind}`}
      role={notice.kind === "error" ? "alert" : "status"}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <span className="notice-text">
        {notice.text}
        {notice.count > 1 && <span className="notice-count"> (×{notice.count})</span>}
      </span>
      {notice.action && <NoticeButton notice={notice} />}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissNotice(notice.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * Places the stack right above the composer and tells the layout its height (`--notices-height`),
 * so the chat's `.notice-room` makes room for it instead of the stack covering the messages.
 */
function useNoticeRoom(showing: boolean) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!showing || !el) return;
    const root = document.documentElement;
    const composer = document.querySelector(".composer");
    const place = () => {
      const above = composer ? window.innerHeight - composer.getBoundingClientRect().top : 16;
      el.style.bottom = `${Math.max(above, 0) + 8}px`;
      root.style.setProperty("--notices-height", `${el.offsetHeight + 16}px`);
    };
    place();
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(place);
    observer?.observe(el);
    if (composer) observer?.observe(composer);
    window.addEventListener("resize", place);
    return () => {
      observer?.disconnect();
      window.removeEventListener("resize", place);
      root.style.removeProperty("--notices-height");
    };
  }, [showing]);
  return box;
}

/** A notice's one action; it runs once, and the notice goes with it. */
function NoticeButton({ notice }: { notice: Notice }) {
  const action = notice.action;
  if (!action) return null;
  switch (action.kind) {
    case "redo-compaction":
      return (
        <button
          type="button"
          title="Put the compaction back: the next message sends the summary again"
          onClick={() => {
            dismissNotice(notice.id);
            void redoCompactionFromNotice(action.sessionId, action.compactionId);
          }}
        >
          Redo
        </button>
      );
  }
}
