/**
 * Files a provider's code execution produced (issue 28 item 2): after a tool reply, each file of
 * this turn's replies (an image output too) is downloaded with the user's key for its provider
 * (providers/code-files.ts, loaded on demand), sniffed, stored as a blob, and recorded by a
 * `grove.code-files` entry appended at the leaf (core/session/code-files.ts). A failed download is shown on its file ("Couldn't download …")
 * with Retry; nothing else is touched. Statuses in flight live in `useCodeFilesStore` (forgotten on
 * reload: a file with no record then offers Download).
 */

import { inlineTypeOf, SNIFF_BYTES } from "../../core/attachments/sniff";
import {
  codeFilesData,
  missingCodeFiles,
  type ProducedFile,
  type StoredCodeFile,
  storedFileName,
} from "../../core/session/code-files";
import type { Entry } from "../../core/session/entries";
import { newEntryId, type SessionId } from "../../core/session/ids";
import { storeBlob } from "../../db/blobs";
import { appendEntries, getSessionPath } from "../../db/entries";
import { StaleLeafError } from "../../db/errors";
import { chatActivity } from "../activity/chat-activity";
import { defineStore } from "../app/store-registry";
import { findProvider } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";

type CodeFileStatus = { kind: "downloading" } | { kind: "failed"; message: string };

type CodeFilesState = { status: Readonly<Record<string, CodeFileStatus>> };

export const useCodeFilesStore = defineStore<CodeFilesState>(() => ({ status: {} }));

function setStatus(key: string, status: CodeFileStatus | null): void {
  useCodeFilesStore.setState((s) => {
    const next = { ...s.status };
    if (status) next[key] = status;
    else delete next[key];
    return { status: next };
  });
}

/** How often a record is re-placed when the chat moved on meanwhile. */
const APPEND_ATTEMPTS = 3;

/** Downloads and stores one file; its failure is shown on it. Null when it failed. */
async function fetchOne(file: ProducedFile): Promise<StoredCodeFile | null> {
  setStatus(file.key, { kind: "downloading" });
  try {
    const provider = findProvider(useSettingsStore.getState().settings, file.provider);
    if (!provider) throw new Error("its provider is no longer set up.");
    const { downloadCodeFile } = await import("../../providers/code-files");
    const got = await downloadCodeFile(provider, file);
    // What the bytes are, not what the provider or a data: URL claims: a raster image is stored as one
    // (and shown); anything else, an SVG too, is stored as it came and offered as a download only.
    const inline = inlineTypeOf(got.bytes.subarray(0, SNIFF_BYTES));
    const mimeType = inline.startsWith("image/") ? inline : got.mimeType;
    const blobId = await storeBlob(got.bytes, mimeType);
    return {
      key: file.key,
      fileId: file.fileId,
      ...(file.containerId ? { containerId: file.containerId } : {}),
      name: storedFileName(got.name, mimeType),
      mimeType,
      size: got.bytes.length,
      blobId,
    };
  } catch (e) {
    setStatus(file.key, { kind: "failed", message: e instanceof Error ? e.message : String(e) });
    return null;
  }
}

/**
 * Appends the record at the chat's leaf: by the send that made the files (it holds the chat, so nothing
 * races it), or else only while the chat is idle (a reply or compaction would land beside it).
 */
async function record(sessionId: SessionId, files: readonly StoredCodeFile[], bySend: boolean): Promise<void> {
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    if (!bySend && !chatActivity(sessionId).idle) throw new Error("the chat is busy; try again when it is done.");
    const read = await getSessionPath(sessionId);
    if (!read) throw new Error("the chat no longer exists.");
    const id = newEntryId();
    const now = Date.now();
    try {
      await appendEntries(
        sessionId,
        [
          {
            type: "custom",
            id,
            sessionId,
            parentId: read.session.leafId,
            createdAt: now,
            ...codeFilesData(files),
          },
        ],
        { kind: "only-if-leaf-is", expected: read.session.leafId, to: id },
        now,
      );
      return;
    } catch (e) {
      if (!(e instanceof StaleLeafError)) throw e;
    }
  }
  throw new Error("the chat kept moving; download it again.");
}

/**
 * Downloads `files` and records the ones that arrived; each failure stays on its file. `bySend`: the
 * caller is the send that made them, holding the chat (else the chat must be idle to record).
 */
export async function downloadCodeFiles(
  sessionId: SessionId,
  files: readonly ProducedFile[],
  bySend = false,
): Promise<void> {
  if (files.length === 0) return;
  const stored: StoredCodeFile[] = [];
  for (const file of files) {
    const got = await fetchOne(file);
    if (got) stored.push(got);
  }
  if (stored.length === 0) return;
  try {
    await record(sessionId, stored, bySend);
    for (const f of stored) setStatus(f.key, null);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    for (const f of stored) setStatus(f.key, { kind: "failed", message });
  }
}

/** After a tool reply, by its send (which holds the chat): the files this turn's replies (after the path's last user message) produced and no record holds. */
export function downloadTurnFiles(sessionId: SessionId, path: readonly Entry[]): Promise<void> {
  const lastUser = path.findLastIndex((e) => e.type === "message" && e.role === "user");
  return downloadCodeFiles(sessionId, missingCodeFiles(path.slice(lastUser + 1)), true);
}
