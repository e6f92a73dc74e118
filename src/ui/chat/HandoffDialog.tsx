import { useState } from "react";
import {
  closeHandoffDialog,
  runHandoffDialog,
  setHandoffDocument,
  startHandoffSession,
  useHandoffDialog,
} from "../../state/dialogs/handoff-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { Dialog } from "../common/Dialog";
import { ProgressBlock } from "../common/ProgressBlock";
import { SubmitTextarea } from "../common/SubmitTextarea";
import { progressText } from "./maintenance-text";

/**
 * "Handoff" (DESIGN §5): an optional focus for the next session, then the model writes a handoff
 * document (streaming in, Cancel aborts and writes nothing), the user edits it, and "Start new
 * session" opens a new session that starts from it. The old chat is unchanged.
 */
export function HandoffDialog() {
  const sessionId = useHandoffDialog((s) => s.sessionId);
  const phase = useHandoffDialog((s) => s.phase);
  if (!sessionId) return null;
  return (
    <Dialog title="Handoff" onClose={closeHandoffDialog} closeOnBackdrop={phase === "form"} wide={phase === "editing"}>
      {phase === "form" ? (
        <HandoffForm />
      ) : phase === "running" ? (
        <HandoffProgress />
      ) : phase === "editing" ? (
        <HandoffDocument />
      ) : (
        <HandoffOutcome />
      )}
    </Dialog>
  );
}

function HandoffForm() {
  const previous = useHandoffDialog((s) => s.focus);
  const [focus, setFocus] = useState(previous);
  const submit = () => void runHandoffDialog(focus);
  return (
    <form
      className="compact-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p className="small">
        The model writes a handoff document — goal, constraints, progress, key decisions, next steps — and a new session
        starts from it, with the same model and system prompt. This chat stays as it is, linked to the new one.
      </p>
      <SubmitTextarea
        label="Handoff focus (optional)"
        rows={2}
        value={focus}
        placeholder="e.g. Next: write the migration tests."
        onChange={setFocus}
        onSubmit={submit}
      />
      <div className="dialog-actions">
        <button type="button" onClick={closeHandoffDialog}>
          Cancel
        </button>
        <button type="submit" className="primary">
          Write handoff document
        </button>
      </div>
    </form>
  );
}

function HandoffProgress() {
  const sessionId = useHandoffDialog((s) => s.sessionId);
  // The document, or the compaction a handoff falls back to: the manual operation of this chat.
  const op = useMaintenanceStore((s) => (s.op && s.op.sessionId === sessionId && !s.op.automatic ? s.op : null));
  const status = !op
    ? "Preparing…"
    : op.kind === "compaction"
      ? `No handoff document: compacting in place instead. ${progressText(op)}`
      : progressText(op);
  return (
    <ProgressBlock
      status={status}
      text={op?.text ?? ""}
      textLabel="Document so far"
      emptyText="The document appears here as it is written."
      cancelNote="Cancel stops the request; nothing is saved."
      onCancel={closeHandoffDialog}
    />
  );
}

function HandoffDocument() {
  const text = useHandoffDialog((s) => s.document);
  const creating = useHandoffDialog((s) => s.creating);
  const empty = text.trim() === "";
  return (
    <form
      className="compact-form"
      onSubmit={(e) => {
        e.preventDefault();
        void startHandoffSession();
      }}
    >
      <p className="small">
        Edit the document as you like: the new session's model sees only this, none of the chat so far.
      </p>
      <label className="field">
        <span>Handoff document</span>
        <textarea
          className="handoff-document"
          rows={16}
          value={text}
          onChange={(e) => setHandoffDocument(e.target.value)}
        />
      </label>
      <div className="dialog-actions">
        {empty && <span className="muted small push-left">The document is empty.</span>}
        <button type="button" onClick={closeHandoffDialog}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={empty || creating}>
          Start new session
        </button>
      </div>
    </form>
  );
}

function HandoffOutcome() {
  const problem = useHandoffDialog((s) => s.problem);
  const focus = useHandoffDialog((s) => s.focus);
  const text = useHandoffDialog((s) => s.document);
  if (!problem) return null;
  return (
    <div className="compact-outcome">
      <div
        className={problem.error ? "outcome error-box" : "outcome info-box"}
        role={problem.error ? "alert" : "status"}
      >
        <strong>{problem.title}</strong>
        <span>{problem.body}</span>
      </div>
      <div className="dialog-actions">
        {text.trim() !== "" && (
          <button type="button" onClick={() => useHandoffDialog.setState({ phase: "editing", problem: null })}>
            Back to the document
          </button>
        )}
        {problem.retry && (
          <button type="button" onClick={() => void runHandoffDialog(focus)}>
            Try again
          </button>
        )}
        <button type="button" className="primary" onClick={closeHandoffDialog}>
          OK
        </button>
      </div>
    </div>
  );
}
