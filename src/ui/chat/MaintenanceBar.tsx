import type { SessionId } from "../../core/session/ids";
import { cancelMaintenance } from "../../state/actions/compact";
import { type MaintenanceKind, useMaintenanceStore, useUiStore } from "../../state/stores";
import { automaticReasonText, phaseText } from "./maintenance-text";

const OP_TITLE: Record<MaintenanceKind, string> = {
  compaction: "Compacting automatically.",
  handoff: "Handing off…",
  branch_summary: "Summarizing branch…",
};

/** The bar's accessible name and its Cancel button, per kind. */
const OP_NAME: Record<MaintenanceKind, { bar: string; cancel: string; queued: string }> = {
  compaction: {
    bar: "Automatic compaction",
    cancel: "Cancel compaction",
    queued: "Will be sent after compaction.",
  },
  handoff: {
    bar: "Automatic handoff",
    cancel: "Cancel handoff",
    queued: "Goes to the new session's composer after the handoff.",
  },
  branch_summary: {
    bar: "Branch summary",
    cancel: "Cancel summary",
    queued: "Will be sent after the summary.",
  },
};

/**
 * Grove compacting (threshold, overflow, length, preflight) or handing off (the threshold strategy
 * "handoff") on its own: what and why, the phase, and Cancel. The composer stays usable meanwhile; a message sent now waits here, queued, and
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
        <div className="maintenance-bar" role="status" aria-label={OP_NAME[op.kind].bar}>
          <span className="spinner" aria-hidden="true" />
          <div className="maintenance-text">
            <div>
              <strong>{OP_TITLE[op.kind]}</strong>{" "}
              {op.kind === "handoff"
                ? "The context reached the automatic threshold: a new session will start from a handoff document."
                : automaticReasonText(op.reason)}
            </div>
            <div className="muted small">
              {op.kind === "handoff" && op.progress.phase === "summarizing"
                ? "Writing the handoff document…"
                : phaseText(op.progress)}
              {lastLine && <span className="maintenance-preview"> {lastLine}</span>}
            </div>
          </div>
          <button type="button" onClick={cancelMaintenance}>
            {OP_NAME[op.kind].cancel}
          </button>
        </div>
      )}
      {queued && (
        <div className="queued-message" role="note" aria-label="Queued message">
          <div className="queued-head">
            <span className="badge">queued</span>
            <span className="muted small">{op ? OP_NAME[op.kind].queued : "Sending…"}</span>
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
