import { useUiStore } from "../../state/app/ui-store";
import { answerApproval, useApprovalStore } from "../../state/tools/approval-store";
import { Dialog } from "../common/Dialog";
import { formatToolArgs } from "./tool-step-text";

/**
 * "Allow tool call?" (issue 28): the first tool call waiting for the user's answer — which server,
 * which tool, its arguments (formatted, as plain text) — with the four answers. Closing it is "Deny".
 */
export function ApprovalDialog() {
  const request = useApprovalStore((s) => s.queue[0]);
  const onScreen = useUiStore((s) => s.sessionId);
  if (!request) return null;
  const answer = (a: Parameters<typeof answerApproval>[1]) => answerApproval(request.id, a);
  return (
    <Dialog title="Allow tool call?" onClose={() => answer("deny")} closeOnBackdrop={false}>
      <dl className="approval-facts">
        <dt>Server</dt>
        <dd>{request.server}</dd>
        <dt>Tool</dt>
        <dd>
          <code>{request.tool}</code>
        </dd>
      </dl>
      <p className="approval-args-label">Arguments</p>
      <pre className="approval-args">{formatToolArgs(request.args)}</pre>
      {request.sessionId !== onScreen && <p className="muted small">Asked by a chat that is not on screen.</p>}
      <div className="dialog-actions approval-actions">
        <button type="button" className="primary" onClick={() => answer("once")}>
          Allow once
        </button>
        <button type="button" onClick={() => answer("chat")}>
          Allow in this chat
        </button>
        <button type="button" onClick={() => answer("always")}>
          Always allow
        </button>
        <button type="button" className="danger" onClick={() => answer("deny")}>
          Deny
        </button>
      </div>
    </Dialog>
  );
}
