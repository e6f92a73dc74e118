/**
 * Reads for export: a session with every entry of every branch and its labels, from one read
 * transaction so the three agree even while another tab appends; then the attachment data its
 * entries reference (blobs are immutable, so reading them after that transaction cannot disagree).
 */
import type { ExportedSession } from "../core/export/grove-json";
import type { EntryId, SessionId } from "../core/session/ids";
import { exportedBlobsOf } from "./blobs";
import { type GroveDb, getDb } from "./schema";

/** The session as an export needs it, or undefined if there is no such session. */
export async function readSessionForExport(id: SessionId): Promise<ExportedSession | undefined> {
  const db = getDb();
  const s = await db.transaction("r", db.sessions, db.entries, db.labels, () => withEntriesAndLabels(db, id));
  return s ? withBlobs(s) : undefined;
}

async function withBlobs(s: ExportedSession): Promise<ExportedSession> {
  const blobs = await exportedBlobsOf(s.entries);
  return blobs.length > 0 ? { ...s, blobs } : s;
}

/** Every session, most recently updated first (the order of the session list). */
export async function readAllForExport(): Promise<ExportedSession[]> {
  const db = getDb();
  const sessions = await db.transaction("r", db.sessions, db.entries, db.labels, async () => {
    const ids = (await db.sessions.orderBy("updatedAt").reverse().primaryKeys()) as SessionId[];
    const out: ExportedSession[] = [];
    for (const id of ids) {
      const one = await withEntriesAndLabels(db, id);
      if (one) out.push(one);
    }
    return out;
  });
  const out: ExportedSession[] = [];
  for (const s of sessions) out.push(await withBlobs(s));
  return out;
}

async function withEntriesAndLabels(db: GroveDb, id: SessionId): Promise<ExportedSession | undefined> {
  const [session, entries, labelRows] = await Promise.all([
    db.sessions.get(id),
    db.entries.where("sessionId").equals(id).toArray(),
    db.labels.where("sessionId").equals(id).toArray(),
  ]);
  if (!session) return undefined;
  const labels: Record<EntryId, string> = {};
  for (const row of labelRows) labels[row.entryId] = row.text;
  return { session, entries, labels };
}
