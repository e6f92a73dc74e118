import type { SessionId } from "../../core/session/ids";
import { cancelMaintenance } from "../../state/app/lazy";
import { useUiStore } from "../../state/app/ui-store";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import type { MaintenanceKind } from "../../state/maintenance/operation";
import { useStreamStore } from "../../state/reply/stream-store";
import { useQueueStore } from "../../state/send/queue-store";
import { discardQueued, sendUnsent } from "../../state/send/queued-message";
import { automaticReasonText, progressText } from "./maintenance-text";

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
 * "handoff") on its own: what and why, the phase, and Cancel. The composer stays usable meanwhile;
 * a message sent now waits here, queued, and goes out right after (even if the user has opened
 * another chat). One queued before a reload was never sent: it waits here for Send or Discard.
 */
export function MaintenanceBar({ sessionId }: { sessionId: SessionId | null }) {
  const op = useMaintenanceStore((s) =>
    sessionId && s.op && s.op.sessionId === sessionId && s.op.automatic ? s.op : null,
  );
  const queued = useQueueStore((s) => (sessionId ? s.queued[sessionId] : undefined));
  // A message sent while a reply runs waits for it (state/send/send.ts), then goes out as its child.
  const replying = useStreamStore((s) => (sessionId ? sessionId in s.replies : false));
  if (!sessionId || (!op && !queued)) return null;
  const lastLine = op?.text.trim().split("\n").filter(Boolean).at(-1) ?? "";
  return (
    <div className="maintenance">
      {op && (
        <div className="maintenance-bar" role="status" aria-label={OP_NAME[op.kind].bar}>
          <span className="spinner" aria-hidden="true" />
          <div className="maintenance-text">
            <div>
              <strong>{OP_TITLE[op.kind]}</strong> {automaticReasonText(op)}
            </div>
            <div className="muted small">
              {progressText(op)}
              {lastLine && <span className="maintenance-preview"> {lastLine}</span>}
            </div>
          </div>
          <button type="button" onClick={cancelMaintenance}>
            {OP_NAME[op.kind].cancel}
          </button>
        </div>
      )}
      {queued && (
        <div
          className="queued-message"
          role="note"
          aria-label={queued.state === "unsent" ? "Unsent message" : "Queued message"}
        >
          <div className="queued-head">
            <span className="badge">{queued.state === "unsent" ? "not sent" : "queued"}</span>
            <span className="muted small">
              {queued.state === "unsent"
                ? "This message was waiting to be sent when the page was closed or reloaded."
                : op
                  ? OP_NAME[op.kind].queued
                  : replying
                    ? "Will be sent after this reply, as its follow-up."
                    : "Sending…"}
            </span>
            {queued.state === "unsent" ? (
              <span className="queued-actions push-left">
                <button type="button" onClick={() => sendUnsent(sessionId)}>
                  Send
                </button>
                <button type="button" className="link-button" onClick={() => void discardQueued(sessionId)}>
                  Discard
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="link-button push-left"
                onClick={() => {
                  void discardQueued(sessionId);
                  useUiStore.setState({ composerSeed: { text: queued.text, nonce: Date.now() } });
                }}
              >
                Don't send
              </button>
            )}
          </div>
          <div className="user-text">{queued.text}</div>
        </div>
      )}
    </div>
  );
}
