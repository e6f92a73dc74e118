import type { SessionId } from "../../core/session/ids";
import { cancelMaintenance } from "../../state/actions/compact";
import { type MaintenanceKind, useMaintenanceStore, useUiStore } from "../../state/stores";
import { automaticReasonText, phaseText } from "./maintenance-text";

const OP_TITLE: Record<MaintenanceKind, string> = {
  compaction: "Compacting automatically.",
  handoff: "Handing off to a new chat automatically.",
  branch_summary: "Summarizing the branch you left.",
};

/**
 * Grove compacting on its own (threshold, overflow, length, preflight): what and why, the phase,
 * and Cancel. The composer stays usable meanwhile; a message sent now waits here, queued, and
 * goes out right after the compaction.
 */
export function MaintenanceBar({ sessionId }: { sessionId: SessionId | null }) {
  const op = useMaintenanceStore((s) =>
    sessionId && s.op && s.op.sessionId === sessionId && s.op.automatic ? s.op : null,
  );
  const queued = useMaintenanceStore((s) => (sessionId ? s.queued[sessionId] : undefined));
  if (!sessionId || (!op && !queued)) return null;
  const lastLine = op?.text.trim().split("\n").filter(Boolean).at(-1) ?? "";
  return (
    <div className="maintenance">
      {op && (
        <div className="maintenance-bar" role="status" aria-label="Automatic compaction">
          <span className="spinner" aria-hidden="true" />
          <div className="maintenance-text">
            <div>
              <strong>{OP_TITLE[op.kind]}</strong> {automaticReasonText(op.reason)}
            </div>
            <div className="muted small">
              {phaseText(op.progress)}
              {lastLine && <span className="maintenance-preview"> {lastLine}</span>}
            </div>
          </div>
          <button type="button" onClick={cancelMaintenance}>
            Cancel compaction
          </button>
        </div>
      )}
      {queued && (
        <div className="queued-message" role="note" aria-label="Queued message">
          <div className="queued-head">
            <span className="badge">queued</span>
            <span className="muted small">{op ? "Will be sent after compaction." : "Sending…"}</span>
            <button
              type="button"
              className="link-button push-left"
              onClick={() => {
                useMaintenanceStore.setState((s) => {
                  const { [sessionId]: _dropped, ...rest } = s.queued;
                  return { queued: rest };
                });
                useUiStore.setState({ composerSeed: { text: queued, nonce: Date.now() } });
              }}
            >
              Don't send
            </button>
          </div>
          <div className="user-text">{queued}</div>
        </div>
      )}
    </div>
  );
}
