/**
 * Exports, run in the transfer worker: read the session(s) (db/export.ts), write the file with the
 * pure exporters (core/export), hand back a Blob (passed to the page by reference, not copied).
 * "Export all" of a large history is a 100 MB string: built on the page's thread it froze the page
 * for seconds. API keys and settings are never read here: an export holds sessions, entries and
 * labels only.
 */
import { ALL_CHATS_BASE, type ExportFormat, exportFileName } from "../../core/export/file-name";
import { exportGroveJson } from "../../core/export/grove-json";
import { exportMarkdown } from "../../core/export/markdown";
import { exportPiJsonl } from "../../core/export/pi/export";
import { assertNever } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { readAllForExport, readSessionForExport } from "../export";
import { withImageData } from "./pi-images";

export type { ExportFormat };

export type ExportRequest =
  | { kind: "session"; sessionId: SessionId; format: ExportFormat; allBranches: boolean; now: number }
  | { kind: "all"; now: number };

export type ExportedFile = { fileName: string; blob: Blob };

export type ExportOutcome = { kind: "ok"; file: ExportedFile } | { kind: "error"; message: string };

export async function runExport(request: ExportRequest): Promise<ExportOutcome> {
  try {
    return { kind: "ok", file: await exportFile(request) };
  } catch (e) {
    return { kind: "error", message: e instanceof Error ? e.message : String(e) };
  }
}

async function exportFile(request: ExportRequest): Promise<ExportedFile> {
  if (request.kind === "all") {
    const text = exportGroveJson(await readAllForExport());
    return {
      fileName: exportFileName(ALL_CHATS_BASE, "grove-json", request.now),
      blob: textBlob(text, "application/json"),
    };
  }
  const s = await readSessionForExport(request.sessionId);
  if (!s) throw new Error("the chat no longer exists");
  const fileName = exportFileName(s.session.title, request.format, request.now);
  switch (request.format) {
    case "grove-json":
      return { fileName, blob: textBlob(exportGroveJson([s]), "application/json") };
    case "markdown":
      return {
        fileName,
        blob: textBlob(exportMarkdown(s, { allBranches: request.allBranches }), "text/markdown"),
      };
    case "html": {
      // Loaded for this export only: its Markdown, code colouring and math (KaTeX) are most of the
      // worker's code, and every import starts this worker too.
      const { exportHtml } = await import("../../core/export/html");
      return { fileName, blob: textBlob(exportHtml(s, { now: request.now }), "text/html") };
    }
    case "pi-jsonl":
      return {
        fileName,
        blob: textBlob(exportPiJsonl(await withImageData(s)), "application/x-ndjson"),
      };
    default:
      return assertNever(request.format, "export format");
  }
}

const textBlob = (text: string, mimeType: string) => new Blob([text], { type: `${mimeType};charset=utf-8` });
