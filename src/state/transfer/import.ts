/**
 * Importing a file: one import at a time, driven through the transfer worker (db/transfer). The
 * store below is what the Import dialog shows: progress while the file is read and checked, the
 * "Keep both" / "Skip" question when sessions already exist, progress while writing, and the
 * error (with nothing written) when the file is bad. A successful import closes the dialog,
 * reports what came in and what could not be read (the import report, shown beside the chat, not
 * over it), and opens the imported chat.
 */

import { describeSkipped, type SkippedRecord } from "../../core/export/skipped";
import type { ImportHandle } from "../../db/transfer/client";
import { startImport } from "../../db/transfer/client";
import type { ConflictChoice, ImportAnalysis, ImportedSessionSummary } from "../../db/transfer/import-job";
import { pushNotice } from "../app/ui-store";
import { openSession } from "../sessions/sessions";
import { type ImportState, useImportReportStore, useImportStore } from "./import-store";

type Ready = Extract<ImportAnalysis, { kind: "ready" }>;

let handle: ImportHandle | null = null;

const busy = () => {
  const { phase } = useImportStore.getState();
  return phase === "reading" || phase === "writing";
};

/**
 * Reads, checks and (when nothing conflicts) writes `file` — or several files chosen together, as
 * one import. Ignored while another import runs.
 */
export async function importFile(file: File | readonly File[]): Promise<void> {
  if (busy()) {
    pushNotice("info", "An import is already running; wait for it to finish.");
    return;
  }
  handle?.dispose();
  const own = startImport();
  handle = own;
  const files = file instanceof File ? [file] : file;
  const first = files[0];
  if (!first) return;
  const fileName = files.length > 1 ? `${files.length} files` : first.name || "the file";
  useImportReportStore.setState({ report: null });
  useImportStore.setState({ phase: "reading", fileName, progress: null }, true);
  const analysis = await own.analyze(files.length > 1 ? files : first, fileName, (progress) => {
    if (handle === own) useImportStore.setState({ phase: "reading", fileName, progress }, true);
  });
  if (handle !== own) return; // cancelled meanwhile
  switch (analysis.kind) {
    case "error":
      finish(own, { phase: "error", fileName, message: analysis.message });
      return;
    case "cancelled":
      finish(own, { phase: "idle" });
      return;
    case "ready":
      if (analysis.sessions.length === 0) {
        finish(own, { phase: "error", fileName, message: `${fileName} holds no chats: there is nothing to import.` });
      } else if (analysis.conflicts.length > 0) {
        useImportStore.setState({ phase: "confirm", fileName, analysis }, true);
      } else {
        await write(own, fileName, analysis, "keep-both");
      }
      return;
  }
}

/** The answer to "these chats already exist": keep both (the file's come in as copies) or skip them. */
export async function resolveImportConflicts(choice: ConflictChoice): Promise<void> {
  const state = useImportStore.getState();
  if (state.phase !== "confirm" || !handle) return;
  await write(handle, state.fileName, state.analysis, choice);
}

async function write(own: ImportHandle, fileName: string, analysis: Ready, choice: ConflictChoice): Promise<void> {
  useImportStore.setState({ phase: "writing", fileName, progress: null }, true);
  const outcome = await own.commit(choice, (progress) => {
    if (handle === own) useImportStore.setState({ phase: "writing", fileName, progress }, true);
  });
  if (handle !== own) return;
  switch (outcome.kind) {
    case "error":
      finish(own, { phase: "error", fileName, message: outcome.message });
      return;
    case "cancelled":
      finish(own, { phase: "idle" });
      pushNotice("info", "Import cancelled: nothing was imported.");
      return;
    case "done": {
      finish(own, { phase: "idle" });
      useImportReportStore.setState({
        report: {
          text: doneText(analysis.formatName, outcome.imported, outcome.skipped, outcome.unreadable),
          unreadable: outcome.unreadable,
        },
      });
      const first = outcome.imported[0];
      if (first) openSession(first.id);
      return;
    }
  }
}

/**
 * "Imported 1,203 chats from a ChatGPT export file · skipped 2 (no messages: "A", "B")." `alreadyHere`:
 * chats the user chose not to import again; `unreadable`: conversations of the file that could not be read.
 */
function doneText(
  formatName: string,
  imported: readonly ImportedSessionSummary[],
  alreadyHere: number,
  unreadable: readonly SkippedRecord[],
): string {
  const skipped =
    unreadable.length > 0
      ? ` · skipped ${unreadable.length.toLocaleString("en")} (${describeSkipped(unreadable)})`
      : "";
  if (imported.length === 0) return `Nothing imported: every chat in the file is already here${skipped}.`;
  const chats = imported.length === 1 ? `“${imported[0]!.title}”` : `${imported.length.toLocaleString("en")} chats`;
  const here = alreadyHere > 0 ? ` (${alreadyHere.toLocaleString("en")} already here, not imported again)` : "";
  return `Imported ${chats} from ${formatName} file${here}${skipped}.`;
}

function finish(own: ImportHandle, next: ImportState): void {
  own.dispose();
  if (handle === own) handle = null;
  useImportStore.setState(next, true);
}

/**
 * Cancel: while reading or deciding, nothing is written yet, so the worker is simply stopped; while
 * writing, the job aborts its one transaction between chunks: nothing is kept.
 */
export function cancelImport(): void {
  const state = useImportStore.getState();
  if (!handle) {
    useImportStore.setState({ phase: "idle" }, true);
    return;
  }
  if (state.phase === "writing") handle.cancel();
  else finish(handle, { phase: "idle" });
}

/** Closes the error shown after a failed import. */
export function dismissImport(): void {
  if (!busy()) useImportStore.setState({ phase: "idle" }, true);
}
