import { createPortal } from "react-dom";
import { dismissNotice, useUiStore } from "../../state/app/ui-store";

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
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissNotice(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>,
    document.body,
  );
}
