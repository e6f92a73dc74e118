import { createPortal } from "react-dom";
import { dismissNotice, type Notice, useUiStore } from "../../state/app/ui-store";
import { redoCompactionFromNotice } from "../../state/maintenance/undo-compaction";

/**
 * Action failures and info in plain words; errors are announced to screen readers. Drawn in
 * document.body and exempt from a modal's inertness (common/inert-behind.ts): a failure while a
 * dialog is open must still be read out and dismissable.
 */
export function Notices() {
  const notices = useUiStore((s) => s.notices);
  if (notices.length === 0) return null;
  return createPortal(
    <div className="notices" data-modal-exempt="">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.kind}`} role={n.kind === "error" ? "alert" : "status"}>
          <span>{n.text}</span>
          {n.action && <NoticeButton notice={n} />}
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissNotice(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>,
    document.body,
  );
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
