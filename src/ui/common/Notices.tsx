import { dismissNotice, useUiStore } from "../../state/stores";

/** Action failures and info in plain words; errors are announced to screen readers. */
export function Notices() {
  const notices = useUiStore((s) => s.notices);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.kind}`} role={n.kind === "error" ? "alert" : "status"}>
          <span>{n.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissNotice(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
