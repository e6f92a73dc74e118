/**
 * One import, in two steps the user sees: `analyze` reads the file (progress in bytes), parses and
 * validates all of it and finds sessions that already exist; `commit` writes (progress in entries)
 * after the user chose "Keep both" or "Skip" for those. Nothing is written before `commit`, and a
 * failed or cancelled `commit` leaves the database as it was: sessions, entries, labels and the
 * attachment bytes they bring go in one transaction.
 *
 * Conversations of another app's export that cannot be read are left out and listed
 * (`unreadable`: title and reason) in the analysis and the outcome; the rest is imported.
 *
 * Runs inside the transfer worker (transfer.worker.ts), so neither the parse of a 100 MB file nor the
 * structured cloning of its rows into IndexedDB touches the page's thread; tests run it in-process.
 */

import type { ChatGptAsset } from "../../core/export/chatgpt-content";
import type { ExportedSession } from "../../core/export/grove-json";
import {
  checkFileSize,
  FORMAT_NAMES,
  type ImportFormat,
  type ImportIdOptions,
  parseImportFiles,
} from "../../core/export/import-file";
import { remapSessions } from "../../core/export/remap-ids";
import type { SkippedRecord } from "../../core/export/skipped";
import { isQuotaError } from "../../core/quota-error";
import { type BlobId, newEntryId, newSessionId, type SessionId } from "../../core/session/ids";
import type { BlobRow } from "../rows";
import { inlineImageBlobs, referencedRows, zipAssetBlobs } from "./import-blobs";
import { readFileBytes } from "./read-file";
import { isZip, readZipExport } from "./read-zip";
import { findIdConflicts, ImportCancelledError, writeImportedSessions } from "./write-sessions";

export type ImportProgress =
  | { phase: "reading"; bytesRead: number; totalBytes: number }
  | { phase: "checking" }
  | { phase: "writing"; entriesWritten: number; totalEntries: number };

export type ImportedSessionSummary = { id: SessionId; title: string; entries: number };

export type ImportAnalysis =
  | {
      kind: "ready";
      format: ImportFormat;
      formatName: string;
      sessions: ImportedSessionSummary[];
      /** Sessions whose ids exist here already: the user chooses "Keep both" or "Skip" for them. */
      conflicts: ImportedSessionSummary[];
      totalEntries: number;
      /** Conversations of the file that could not be read and will not be imported, with why. */
      unreadable: SkippedRecord[];
    }
  | { kind: "error"; message: string }
  | { kind: "cancelled" };

export type ConflictChoice = "keep-both" | "skip";

/**
 * `skipped`: chats already here that the user chose to skip; `unreadable`: conversations of the
 * file that could not be read (a stub with no messages), each with its title and the reason.
 */
type ImportOutcome =
  | {
      kind: "done";
      imported: ImportedSessionSummary[];
      skipped: number;
      unreadable: SkippedRecord[];
      entries: number;
    }
  | { kind: "error"; message: string }
  | { kind: "cancelled" };

export type ImportJob = {
  /** One file, or several chosen together (a split ChatGPT export): one import, validated as a whole. */
  analyze(
    input: Blob | readonly File[],
    fileName: string,
    onProgress: (p: ImportProgress) => void,
  ): Promise<ImportAnalysis>;
  commit(choice: ConflictChoice, onProgress: (p: ImportProgress) => void): Promise<ImportOutcome>;
  /** Stops a running analyze or commit; a cancelled commit aborts its transaction (nothing is kept). */
  cancel(): void;
};

/** Appended to the title of a "Keep both" copy, so the two can be told apart in the list. */
export const COPY_SUFFIX = " (imported)";

/** Progress messages cross a thread: at most this often while reading. */
const PROGRESS_INTERVAL_MS = 100;

export function createImportJob(ids: ImportIdOptions = {}): ImportJob {
  let parsed: ExportedSession[] | null = null;
  let unreadable: SkippedRecord[] = [];
  /** Attachment rows the parsed sessions may refer to, by content address. */
  let blobRows = new Map<BlobId, BlobRow>();
  let conflicts = new Set<SessionId>();
  let cancelled = false;
  const isCancelled = () => cancelled;

  return {
    async analyze(input, fileName, onProgress) {
      cancelled = false;
      parsed = null;
      blobRows = new Map();
      const files: { blob: Blob; name: string }[] = isFileList(input)
        ? input.map((f) => ({ blob: f, name: f.name }))
        : [{ blob: input, name: fileName }];
      if (files.length === 0) return { kind: "error", message: "No file was chosen." };
      const totalBytes = files.reduce((n, f) => n + f.blob.size, 0);
      for (const f of files) {
        const sizeProblem = checkFileSize(f.blob.size);
        if (sizeProblem)
          return { kind: "error", message: files.length > 1 ? `${f.name}: ${sizeProblem}` : sizeProblem };
      }
      const together = checkFileSize(totalBytes);
      if (together) return { kind: "error", message: `The files together: ${together}` };
      const texts: { name: string; text: string }[] = [];
      const rows = new Map<BlobId, BlobRow>();
      const assets = new Map<string, ChatGptAsset>();
      let before = 0;
      let last = 0;
      for (const f of files) {
        let bytes: Uint8Array;
        try {
          bytes = await readFileBytes(
            f.blob,
            (bytesRead) => {
              const now = Date.now();
              if (now - last < PROGRESS_INTERVAL_MS && before + bytesRead < totalBytes) return;
              last = now;
              onProgress({ phase: "reading", bytesRead: before + bytesRead, totalBytes });
            },
            isCancelled,
          );
        } catch (e) {
          if (cancelled) return { kind: "cancelled" };
          return { kind: "error", message: `Could not read ${f.name}: ${e instanceof Error ? e.message : String(e)}` };
        }
        before += f.blob.size;
        if (isZip(bytes)) {
          const inZip = readZipExport(bytes, f.name);
          if (inZip.kind === "error") return inZip;
          for (const t of inZip.files) texts.push({ name: `${f.name}: ${t.name}`, text: t.text });
          for (const [id, asset] of await zipAssetBlobs(bytes, inZip.assets, rows)) assets.set(id, asset);
          if (cancelled) return { kind: "cancelled" };
        } else {
          texts.push({ name: f.name, text: new TextDecoder("utf-8").decode(bytes) });
        }
      }
      onProgress({ phase: "checking" });
      const result = parseImportFiles(texts, assets.size > 0 ? { ...ids, assets } : ids);
      if (result.kind === "error") return result;
      if (cancelled) return { kind: "cancelled" };
      const sessions = await inlineImageBlobs(result.sessions, rows);
      // pi files keep their entry ids (core/export/pi/ids.ts): a Grove-made file holds Grove's own.
      conflicts = await findIdConflicts(sessions, {
        fileIds: result.format === "grove-json" || result.format === "pi-jsonl",
      });
      parsed = sessions;
      unreadable = result.skipped;
      blobRows = rows;
      const summaries = sessions.map(summarize);
      return {
        kind: "ready",
        format: result.format,
        formatName: FORMAT_NAMES[result.format],
        sessions: summaries,
        conflicts: summaries.filter((s) => conflicts.has(s.id)),
        totalEntries: summaries.reduce((n, s) => n + s.entries, 0),
        unreadable,
      };
    },

    async commit(choice, onProgress) {
      if (!parsed) return { kind: "error", message: "Nothing to import: the file was not read yet." };
      cancelled = false;
      const toWrite = resolveConflicts(parsed, conflicts, choice, ids);
      const totalEntries = toWrite.reduce((n, s) => n + s.entries.length, 0);
      onProgress({ phase: "writing", entriesWritten: 0, totalEntries });
      try {
        await writeImportedSessions(toWrite, {
          blobRows: referencedRows(blobRows, toWrite),
          isCancelled,
          onProgress: (entriesWritten) => onProgress({ phase: "writing", entriesWritten, totalEntries }),
        });
      } catch (e) {
        if (e instanceof ImportCancelledError) return { kind: "cancelled" };
        return { kind: "error", message: writeFailure(e) };
      }
      parsed = null;
      blobRows = new Map();
      return {
        kind: "done",
        imported: toWrite.map(summarize),
        skipped: choice === "skip" ? conflicts.size : 0,
        unreadable,
        entries: totalEntries,
      };
    },

    cancel() {
      cancelled = true;
    },
  };
}

const isFileList = (input: Blob | readonly File[]): input is readonly File[] => Array.isArray(input);

function resolveConflicts(
  sessions: ExportedSession[],
  conflicts: ReadonlySet<SessionId>,
  choice: ConflictChoice,
  ids: ImportIdOptions,
): ExportedSession[] {
  if (conflicts.size === 0) return sessions;
  if (choice === "skip") return sessions.filter((s) => !conflicts.has(s.session.id));
  const copies = remapSessions(sessions, conflicts, {
    newSessionId: ids.newSessionId ?? newSessionId,
    newEntryId: ids.newEntryId ?? newEntryId,
  });
  return copies.map((s, i) =>
    conflicts.has(sessions[i]!.session.id)
      ? { ...s, session: { ...s.session, title: s.session.title + COPY_SUFFIX } }
      : s,
  );
}

const summarize = (s: ExportedSession): ImportedSessionSummary => ({
  id: s.session.id,
  title: s.session.title,
  entries: s.entries.length,
});

function writeFailure(e: unknown): string {
  if (isQuotaError(e)) {
    return "Storage is full: the browser would not give this import the space it needs. Nothing was imported. Free some space (delete chats you no longer need, or other sites' data) and try again.";
  }
  return `The import could not be saved, so nothing was imported: ${e instanceof Error ? e.message : String(e)}`;
}
