/**
 * Exports: read the session(s) from the database, turn them into a file with the pure exporters
 * (core/export), hand the file to the UI to save. API keys and settings are never read here: an
 * export holds sessions, entries and labels only.
 *
 * The exporters are loaded on first use (`formats`): a chunk of their own, so the schema library and
 * four formats cost the first paint nothing.
 */
import type { SessionId } from "../../core/session/ids";
import { readAllForExport, readSessionForExport } from "../../db/export";
import { reportActionError } from "./report-error";

const formats = () => import("./export-formats");

export type ExportFormat = "grove-json" | "markdown" | "html" | "pi-jsonl";

export type ExportFile = { fileName: string; mimeType: string; text: string };

/** The session as a file in `format`, or null (the failure is already reported as a notice). */
export async function exportSession(
  sessionId: SessionId,
  format: ExportFormat,
  options: { allBranches?: boolean } = {},
): Promise<ExportFile | null> {
  try {
    const s = await readSessionForExport(sessionId);
    if (!s) throw new Error("the chat no longer exists");
    const { exportGroveJson, exportHtml, exportMarkdown, exportPiJsonl } = await formats();
    const base = fileBaseName(s.session.title);
    switch (format) {
      case "grove-json":
        return { fileName: `${base}.grove.json`, mimeType: "application/json", text: exportGroveJson([s]) };
      case "markdown":
        return {
          fileName: `${base}.md`,
          mimeType: "text/markdown",
          text: exportMarkdown(s, { allBranches: options.allBranches ?? false }),
        };
      case "html":
        return { fileName: `${base}.html`, mimeType: "text/html", text: exportHtml(s, { now: Date.now() }) };
      case "pi-jsonl":
        return { fileName: `${base}.jsonl`, mimeType: "application/x-ndjson", text: exportPiJsonl(s) };
    }
  } catch (e) {
    reportActionError("Could not export the chat", e);
    return null;
  }
}

/** Every session in one Grove JSON file ("Export all" in Settings), or null (reported). */
export async function exportAllSessions(now: number = Date.now()): Promise<ExportFile | null> {
  try {
    const [all, { exportGroveJson }] = await Promise.all([readAllForExport(), formats()]);
    const day = new Date(now).toISOString().slice(0, 10);
    return { fileName: `grove-export-${day}.json`, mimeType: "application/json", text: exportGroveJson(all) };
  } catch (e) {
    reportActionError("Could not export the chats", e);
    return null;
  }
}

/** A file name from a title: what every OS accepts, short, never empty. */
export function fileBaseName(title: string): string {
  const clean = title
    .normalize("NFKC")
    .replace(/[\\/:*?"<>|]+/g, " ")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 80)
    .trim();
  return clean || "chat";
}
