import { useState } from "react";
import { closeSwitchDialog, runSwitchDialog, useSwitchDialog } from "../../state/dialogs/switch-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import type { SwitchChoice } from "../../state/maintenance/switch-branch";
import { Dialog } from "../common/Dialog";
import { ProgressBlock } from "../common/ProgressBlock";
import { SubmitTextarea } from "../common/SubmitTextarea";
import { progressText } from "./maintenance-text";

/**
 * "Rewind" (DESIGN §5; a message's "Rewind to here…", the graph's "Switch here"): one line on what
 * the rewind does, then whether to leave a summary of the part being left — No summary, Summarize,
 * or Summarize with instructions (which replace the default prompt) — and "Remember my choice".
 * With nothing to summarize it only confirms (Rewind / Cancel). While the summary is written: its
 * text streaming in and Cancel (or Esc), which writes nothing and leaves the conversation where it
 * was. Rendered once, near the app root.
 */
export function SwitchBranchDialog() {
  const target = useSwitchDialog((s) => s.target);
  const phase = useSwitchDialog((s) => s.phase);
  if (!target) return null;
  return (
    <Dialog title="Rewind" onClose={closeSwitchDialog} closeOnBackdrop={phase === "form"} wide>
      {phase === "form" ? <SwitchForm /> : phase === "running" ? <SwitchProgress /> : <SwitchOutcome />}
    </Dialog>
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

function SwitchForm() {
  const target = useSwitchDialog((s) => s.target);
  const [withInstructions, setWithInstructions] = useState(false);
  const [instructions, setInstructions] = useState("");
  const [remember, setRemember] = useState(false);
  const run = (choice: SwitchChoice) => void runSwitchDialog(choice, remember);
  if (!target) return null;
  return (
    <form
      className="switch-form"
      onSubmit={(e) => {
        e.preventDefault();
        run({ kind: "summarize", instructions });
      }}
    >
      <p className="rewind-what">
        {target.composerText !== undefined
          ? "Back to just before this message: its text returns to the composer, to edit and send again."
          : "Continue from this message: your next message starts a new branch here."}
      </p>
      <p className="small muted">
        {target.abandonedEntries > 0
          ? `${target.abandonedEntries === 1 ? "The message" : `The ${plural(target.abandonedEntries, "message")}`} you leave ${target.abandonedEntries === 1 ? "stays" : "stay"} in the history (‹ › and the graph).`
          : "Nothing is deleted: every version stays in the history (‹ › and the graph)."}
        {target.summarizable && " A summary lets the model know what was tried there."}
      </p>
      {!target.summarizable && (
        <div className="dialog-actions">
          <button type="button" onClick={closeSwitchDialog}>
            Cancel
          </button>
          <button type="button" className="primary" autoFocus onClick={() => run({ kind: "none" })}>
            Rewind
          </button>
        </div>
      )}
      {target.summarizable && (
        <>
          {withInstructions && (
            <SubmitTextarea
              label="Summary instructions"
              rows={3}
              value={instructions}
              autoFocus
              placeholder="e.g. Only record which approaches failed and why."
              hint="These replace the default summary prompt."
              onChange={setInstructions}
              onSubmit={() => run({ kind: "summarize", instructions })}
            />
          )}
          <label className="check">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            Remember my choice
          </label>
          <p className="muted small hint-under-check">
            Rewind and Switch here then do the same without asking (change it in Settings). Instructions are not
            remembered.
          </p>
          <div className="dialog-actions">
            <button type="button" onClick={() => run({ kind: "none" })}>
              No summary
            </button>
            {withInstructions ? (
              <button type="submit" className="primary">
                Summarize
              </button>
            ) : (
              <>
                <button type="button" onClick={() => setWithInstructions(true)}>
                  Summarize with instructions
                </button>
                <button type="button" className="primary" onClick={() => run({ kind: "summarize" })}>
                  Summarize
                </button>
              </>
            )}
          </div>
        </>
      )}
    </form>
  );
}

function SwitchProgress() {
  const sessionId = useSwitchDialog((s) => s.target?.sessionId);
  const op = useMaintenanceStore((s) =>
    s.op && s.op.sessionId === sessionId && s.op.kind === "branch_summary" ? s.op : null,
  );
  return (
    <ProgressBlock
      status={op ? progressText(op) : "Preparing…"}
      text={op?.text ?? ""}
      textLabel="Summary so far"
      emptyText="The summary appears here as it is written."
      cancelNote="Cancel stops the request; nothing is saved and you stay here."
      onCancel={closeSwitchDialog}
    />
  );
}

function SwitchOutcome() {
  const result = useSwitchDialog((s) => s.result);
  const choice = useSwitchDialog((s) => s.choice);
  if (!result) return null;
  const { title, body } =
    result.kind === "busy"
      ? {
          title: "Busy",
          body: "A reply, a compaction or another summary is running. Try again when it has finished.",
        }
      : result.kind === "stale"
        ? {
            title: "The chat moved on",
            body: "New messages arrived while the summary was being written, so nothing was changed.",
          }
        : { title: "Branch summary failed", body: result.message };
  return (
    <div className="compact-outcome">
      <div className={result.kind === "stale" ? "outcome info-box" : "outcome error-box"} role="alert">
        <strong>{title}</strong>
        <span>{body}</span>
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={() => void runSwitchDialog({ kind: "none" }, false)}>
          Rewind without a summary
        </button>
        {choice && choice.kind === "summarize" && (
          <button type="button" onClick={() => void runSwitchDialog(choice, false)}>
            Try again
          </button>
        )}
        <button type="button" className="primary" onClick={closeSwitchDialog}>
          OK
        </button>
      </div>
    </div>
  );
}
