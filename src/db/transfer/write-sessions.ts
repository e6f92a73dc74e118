/**
 * Writing validated, imported sessions. The caller has checked the whole file (core/export)
 * before the first write; this module keeps the other half of the promise: an import lands whole
 * or not at all.
 *
 * Several sessions go in one transaction, up to a batch of entries (a 100 MB export is hundreds of
 * thousands of entries: one transaction for all of them would hold every row in memory twice and
 * give no progress). A session is never split: it appears in the list complete or not at all. If
 * a batch fails (quota) or the import is cancelled, the sessions written by earlier batches are
 * deleted again, so the database is as it was before the import.
 */
import type { ExportedSession } from "../../core/export/grove-json";
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import type { LabelRow } from "../rows";
import { getDb } from "../schema";
import { deleteSession } from "../sessions";

/** Entries per transaction: large enough that per-transaction cost is noise, small enough to report progress. */
export const IMPORT_BATCH_ENTRIES = 5_000;

export class ImportCancelledError extends Error {
  constructor() {
    super("The import was cancelled; nothing was kept.");
    this.name = "ImportCancelledError";
  }
}

/**
 * Sessions of `sessions` that can't be written under their own ids: the session id is taken, or
 * (a Grove export of a session that was deleted and re-created elsewhere) one of its entry ids is.
 */
export async function findIdConflicts(sessions: readonly ExportedSession[]): Promise<Set<SessionId>> {
  const db = getDb();
  const conflicts = new Set<SessionId>();
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
  return conflicts;
}

export type WriteOptions = {
  /** Called after each committed batch with the entries written so far. */
  onProgress?: (entriesWritten: number) => void;
  /** Checked between batches; true stops the import and removes what it wrote. */
  isCancelled?: () => boolean;
  batchEntries?: number;
};

/**
 * Adds every session with its entries and labels. Ids must be free (see findIdConflicts): `add`,
 * never `put`, so an existing row is an error rather than an overwrite (entries are append-only).
 * @throws whatever a transaction threw (quota, constraint), or ImportCancelledError — after removing
 *   every session this call had written.
 */
export async function writeImportedSessions(
  sessions: readonly ExportedSession[],
  options: WriteOptions = {},
): Promise<void> {
  const batchLimit = options.batchEntries ?? IMPORT_BATCH_ENTRIES;
  const written: SessionId[] = [];
  let entriesWritten = 0;
  try {
    for (const batch of batches(sessions, batchLimit)) {
      if (options.isCancelled?.()) throw new ImportCancelledError();
      await writeBatch(batch);
      for (const s of batch) {
        written.push(s.session.id);
        entriesWritten += s.entries.length;
      }
      options.onProgress?.(entriesWritten);
    }
  } catch (e) {
    await removeSessions(written);
    throw e;
  }
}

function* batches(sessions: readonly ExportedSession[], limit: number): Generator<ExportedSession[]> {
  let batch: ExportedSession[] = [];
  let size = 0;
  for (const s of sessions) {
    if (batch.length > 0 && size + s.entries.length > limit) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(s);
    size += s.entries.length;
  }
  if (batch.length > 0) yield batch;
}

async function writeBatch(batch: readonly ExportedSession[]): Promise<void> {
  const db = getDb();
  const entries: Entry[] = [];
  const labels: LabelRow[] = [];
  for (const s of batch) {
    entries.push(...s.entries);
    for (const [entryId, text] of Object.entries(s.labels)) {
      labels.push({ entryId: entryId as EntryId, sessionId: s.session.id, text });
    }
  }
  await db.transaction("rw", db.sessions, db.entries, db.labels, async () => {
    await db.entries.bulkAdd(entries);
    await db.labels.bulkAdd(labels);
    await db.sessions.bulkAdd(batch.map((s) => s.session));
  });
}

/** Best effort, one session at a time: a failing delete must not keep the others from going. */
async function removeSessions(ids: readonly SessionId[]): Promise<void> {
  for (const id of ids) {
    try {
      await deleteSession(id);
    } catch {
      // Nothing better to do: the import's own error is the one the user must see.
    }
  }
}
