import { formatBytes } from "../../core/format-bytes";
import type { ImportProgress } from "../../db/transfer/import-job";
import { cancelImport, dismissImport, resolveImportConflicts } from "../../state/transfer/import";
import { type ImportState, useImportStore } from "../../state/transfer/import-store";
import { Dialog } from "../common/Dialog";

/** The import in progress: reading, the "already here" question, writing, or what went wrong. */
export function ImportDialog() {
  const state = useImportStore();
  if (state.phase === "idle") return null;
  const running = state.phase === "reading" || state.phase === "writing";
  return (
    <Dialog
      title="Import"
      onClose={running || state.phase === "confirm" ? cancelImport : dismissImport}
      closeOnBackdrop={!running}
    >
      <ImportBody state={state} />
    </Dialog>
  );
}

function ImportBody({ state }: { state: Exclude<ImportState, { phase: "idle" }> }) {
  switch (state.phase) {
    case "reading":
    case "writing":
      return (
        <div className="import-progress">
          <p>
            {state.phase === "reading" ? "Reading" : "Importing"} <strong>{state.fileName}</strong>…
          </p>
          <ProgressLine progress={state.progress} />
          <div className="dialog-actions">
            {/* Each phase is a new subtree: its main button takes the focus, so Esc and the screen
                reader stay in the dialog as it changes. */}
            <button type="button" autoFocus onClick={cancelImport}>
              Cancel
            </button>
          </div>
        </div>
      );
    case "confirm": {
      const { analysis } = state;
      const n = analysis.conflicts.length;
      return (
        <div>
          <p id="import-question">
            {n === 1 ? "One chat" : `${n} chats`} in <strong>{state.fileName}</strong> {n === 1 ? "is" : "are"} already
            here:
          </p>
          <ul className="import-conflicts">
            {analysis.conflicts.slice(0, 8).map((c) => (
              <li key={c.id}>{c.title}</li>
            ))}
            {n > 8 && <li className="muted">…and {n - 8} more</li>}
          </ul>
          <p className="small muted">
            Keep both imports {n === 1 ? "it" : "them"} as separate copies (titled “… (imported)”); Skip leaves the
            chats here as they are and imports only the rest ({analysis.sessions.length - n} of{" "}
            {analysis.sessions.length}).
          </p>
          <div className="dialog-actions">
            <button
              type="button"
              className="primary"
              autoFocus
              aria-describedby="import-question"
              onClick={() => void resolveImportConflicts("keep-both")}
            >
              Keep both
            </button>
            <button type="button" onClick={() => void resolveImportConflicts("skip")}>
              Skip
            </button>
            <button type="button" onClick={cancelImport}>
              Cancel
            </button>
          </div>
        </div>
      );
    }
    case "error":
      return (
        <div>
          <p role="alert" className="import-error">
            Could not import <strong>{state.fileName}</strong>: {state.message}
          </p>
          <p className="small muted">Nothing was imported; your chats are as they were.</p>
          <div className="dialog-actions">
            <button type="button" autoFocus onClick={dismissImport}>
              OK
            </button>
          </div>
        </div>
      );
  }
}

function ProgressLine({ progress }: { progress: ImportProgress | null }) {
  if (!progress) return <progress aria-label="Import progress" />;
  switch (progress.phase) {
    case "reading":
      return (
        <>
          <progress aria-label="Import progress" max={progress.totalBytes} value={progress.bytesRead} />
          <p className="small muted" aria-live="polite">
            {formatBytes(progress.bytesRead)} of {formatBytes(progress.totalBytes)} read
          </p>
        </>
      );
    case "checking":
      return (
        <>
          <progress aria-label="Import progress" />
          <p className="small muted" aria-live="polite">
            Checking every entry before anything is written…
          </p>
        </>
      );
    case "writing":
      return (
        <>
          <progress
            aria-label="Import progress"
            max={Math.max(1, progress.totalEntries)}
            value={progress.entriesWritten}
          />
          <p className="small muted" aria-live="polite">
            {progress.entriesWritten.toLocaleString()} of {progress.totalEntries.toLocaleString()} entries written
          </p>
        </>
      );
  }
}
