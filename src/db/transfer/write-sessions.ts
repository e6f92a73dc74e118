/**
 * Writing validated, imported sessions. The caller has checked the whole file (core/export)
 * before the first write; this module keeps the other half of the promise: an import lands whole
 * or not at all.
 *
 * One `rw` transaction for the whole import. IndexedDB then guarantees what batches committed one
 * by one could not: if a write fails (quota), the user cancels, the worker dies or the tab is
 * closed mid-import, the transaction is aborted and nothing of it is ever visible — no cleanup
 * pass, no window in which another tab sees half an import. Entries go in chunks so progress can be
 * reported (and Cancel checked) between them; they become durable, and visible, at the commit.
 */

import type { ExportedSession } from "../../core/export/grove-json";
import type { Entry } from "../../core/session/entries";
import type { BlobId, EntryId, SessionId } from "../../core/session/ids";
import type { BlobRow, LabelRow } from "../rows";
import { type GroveDb, getDb } from "../schema";
import { embeddedBlobs } from "./import-blobs";

/** Entries per write request: large enough that per-request cost is noise, small enough to report progress. */
const IMPORT_BATCH_ENTRIES = 5_000;

export class ImportCancelledError extends Error {
  constructor() {
    super("The import was cancelled; nothing was kept.");
    this.name = "ImportCancelledError";
  }
}

/**
 * Sessions of `sessions` that are already here: the session id is taken; or (a Grove export of a
 * session deleted and re-created elsewhere) one of its entry ids is; or it was imported before from
 * the same source (`importedFrom`: a ChatGPT export or pi file read again gets fresh ids, but is
 * the same conversation).
 */
export async function findIdConflicts(
  sessions: readonly ExportedSession[],
  /** false when the parser minted fresh UUIDv7 ids (ChatGPT, pi): none can be taken, so none is looked up. */
  options: { fileIds: boolean } = { fileIds: true },
): Promise<Set<SessionId>> {
  const db = getDb();
  const conflicts = new Set<SessionId>();
  if (options.fileIds) await addIdConflicts(db, sessions, conflicts);
  const sources = new Map<string, SessionId[]>();
  for (const s of sessions) {
    const from = s.session.importedFrom;
    if (from === undefined) continue;
    const same = sources.get(from);
    if (same) same.push(s.session.id);
    else sources.set(from, [s.session.id]);
  }
  if (sources.size > 0) {
    // A filter, not an index: session rows are few and light (see db/sessions.ts childSessions).
    const seen = await db.sessions.filter((s) => s.importedFrom !== undefined && sources.has(s.importedFrom)).toArray();
    for (const s of seen) for (const id of sources.get(s.importedFrom!) ?? []) conflicts.add(id);
  }
  return conflicts;
}

/** Sessions whose id, or one of whose entry ids, is taken. */
async function addIdConflicts(
  db: GroveDb,
  sessions: readonly ExportedSession[],
  conflicts: Set<SessionId>,
): Promise<void> {
  const existing = await db.sessions.bulkGet(sessions.map((s) => s.session.id));
  sessions.forEach((s, i) => {
    if (existing[i]) conflicts.add(s.session.id);
  });
  const entryOwner = new Map<EntryId, SessionId>();
  for (const s of sessions)
    if (!conflicts.has(s.session.id)) for (const e of s.entries) entryOwner.set(e.id, s.session.id);
  const ids = [...entryOwner.keys()];
  for (let i = 0; i < ids.length; i += IMPORT_BATCH_ENTRIES) {
    const taken = await db.entries
      .where(":id")
      .anyOf(ids.slice(i, i + IMPORT_BATCH_ENTRIES))
      .primaryKeys();
    for (const id of taken) conflicts.add(entryOwner.get(id)!);
  }
}

export type WriteOptions = {
  /** Called after each chunk with the entries written so far (inside the transaction: not yet committed). */
  onProgress?: (entriesWritten: number) => void;
  /** Checked between chunks and before the commit; true aborts the transaction. */
  isCancelled?: () => boolean;
  batchEntries?: number;
  /** Attachment rows made before the import (a ChatGPT .zip's images, inline images): written with it. */
  blobRows?: readonly BlobRow[];
};

/**
 * Adds every session with its entries and labels, in one transaction. Ids must be free (see
 * findIdConflicts): `add`, never `put`, so an existing row is an error rather than an overwrite
 * (entries are append-only).
 * @throws whatever aborted the transaction (quota, constraint), or ImportCancelledError; either way
 *   nothing was written.
 */
export async function writeImportedSessions(
  imported: readonly ExportedSession[],
  options: WriteOptions = {},
): Promise<void> {
  // Attachment bytes, hashed and typed before the transaction (only Dexie calls inside it): a file a
  // session carries is stored under the hash of its bytes, whatever id the file claims.
  const now = Date.now();
  const blobs = new Map<BlobId, BlobRow>();
  for (const r of options.blobRows ?? []) blobs.set(r.id, { ...r, createdAt: now });
  const sessions = await embeddedBlobs(imported, blobs, now);
  const chunk = options.batchEntries ?? IMPORT_BATCH_ENTRIES;
  const cancelled = () => {
    if (options.isCancelled?.()) throw new ImportCancelledError();
  };
  // Flattened without spreading: a session may hold up to a million entries, far more arguments
  // than a call (push(...entries)) can take.
  const entries: Entry[] = [];
  const labels: LabelRow[] = [];
  for (const s of sessions) {
    for (const e of s.entries) entries.push(e);
    for (const [entryId, text] of Object.entries(s.labels)) {
      labels.push({ entryId: entryId as EntryId, sessionId: s.session.id, text });
    }
  }
  const db = getDb();
  await db.transaction("rw", [db.sessions, db.entries, db.labels, db.blobs], async () => {
    // Never overwrite a stored file (issue 24.2): a blob is its content's hash, so one already here
    // holds these bytes; only its createdAt is refreshed.
    if (blobs.size > 0) {
      const stored = await db.blobs.bulkGet([...blobs.keys()]);
      await db.blobs.bulkPut(
        [...blobs.values()].map((r, i) => {
          const here = stored[i];
          return here ? { ...here, createdAt: now } : r;
        }),
      );
    }
    for (let i = 0; i < entries.length; i += chunk) {
      cancelled();
      await db.entries.bulkAdd(entries.slice(i, i + chunk));
      options.onProgress?.(Math.min(i + chunk, entries.length));
    }
    await db.labels.bulkAdd(labels);
    await db.sessions.bulkAdd(sessions.map((s) => s.session));
    cancelled(); // a Cancel during the last chunk still aborts
  });
}
