/**
 * Exports: the file is written in the transfer worker (db/transfer), so a large history never
 * freezes the page; this hands the result to the UI to save, or reports why it failed. API keys and
 * settings are never part of an export.
 */
import type { SessionId } from "../../core/session/ids";
import type { ExportedFile, ExportFormat, ExportRequest } from "../../db/transfer/export-job";
import { reportActionError } from "../app/report-error";

/** The session as a file in `format`, or null (the failure is already reported as a notice). */
export function exportSession(
  sessionId: SessionId,
  format: ExportFormat,
  options: { allBranches?: boolean } = {},
): Promise<ExportedFile | null> {
  return run("Could not export the chat", {
    kind: "session",
    sessionId,
    format,
    allBranches: options.allBranches ?? false,
    now: Date.now(),
  });
}

/** Every session in one Grove JSON file ("Export all" in Settings), or null (reported). */
export function exportAllSessions(now: number = Date.now()): Promise<ExportedFile | null> {
  return run("Could not export the chats", { kind: "all", now });
}

async function run(what: string, request: ExportRequest): Promise<ExportedFile | null> {
  // The transfer worker's client is fetched with the first export (the menu is on the first screen).
  const { exportInWorker } = await import("../../db/transfer/client");
  const outcome = await exportInWorker(request);
  if (outcome.kind === "ok") return outcome.file;
  reportActionError(what, new Error(outcome.message));
  return null;
}
