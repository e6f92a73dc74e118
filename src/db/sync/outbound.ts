/**
 * Local → sync records: compares Dexie's rows with what this device last exchanged (syncState) and
 * lists what is new or changed. Entries and blobs are compared by key only (immutable: present in
 * syncState = sent); sessions and labels by their digest (records.ts). A session in syncState but
 * gone here was deleted on this device: its tombstone goes out, and its other records' documents
 * are to be deleted on the server so no ciphertext of it stays there.
 */
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { labelDigest, leafDigest, metaDigest, refOf, type SyncRecord, sessionMeta } from "../../core/sync/records";
import { getDb } from "../schema";
import { encodeRow } from "./generic-row";
import type { SyncStateRow } from "./sync-rows";

/** A record to send, with the digest that marks it sent once written. */
export type Outgoing = { record: SyncRecord; ref: string; sessionId?: SessionId; digest?: string };

/** Documents to delete on the server: every record of a deleted session but its tombstone. */
export type Outbound = { entryIds: EntryId[]; blobIds: string[]; other: Outgoing[]; purge: SyncStateRow[] };

/** What must go out, entries listed by id only (read in batches by readEntries). `stamp` issues clock stamps. */
export async function pendingOutbound(stamp: () => string): Promise<Outbound> {
  const db = getDb();
  return db.transaction("r", [db.entries, db.blobs, db.sessions, db.labels, db.syncState], async () => {
    const sentEntries = new Set(await db.syncState.where("ref").startsWith("e:").primaryKeys());
    const entryKeys = await db.entries.toCollection().primaryKeys();
    const entryIds = entryKeys.filter((id) => !sentEntries.has(refOf("entry", id)));
    entryIds.sort();
    const sentBlobs = new Set(await db.syncState.where("ref").startsWith("b:").primaryKeys());
    const blobIds = (await db.blobs.toCollection().primaryKeys()).filter((id) => !sentBlobs.has(refOf("blob", id)));

    const other: Outgoing[] = [];
    const purge: SyncStateRow[] = [];
    const states = new Map<string, SyncStateRow>();
    for (const prefix of ["s:", "f:", "l:"]) {
      for (const row of await db.syncState.where("ref").startsWith(prefix).toArray()) states.set(row.ref, row);
    }
    const sessions = await db.sessions.toArray();
    const live = new Set<string>();
    for (const s of sessions) {
      live.add(s.id);
      const metaRef = refOf("session", s.id);
      const meta = metaDigest(s);
      const metaState = states.get(metaRef);
      if (metaState?.gone) continue;
      if (metaState?.digest !== meta) {
        other.push({
          ref: metaRef,
          sessionId: s.id,
          digest: meta,
          record: { kind: "session", id: s.id, hlc: stamp(), session: sessionMeta(s) },
        });
      }
      const leafRef = refOf("leaf", s.id);
      const leaf = leafDigest(s);
      if (states.get(leafRef)?.digest !== leaf) {
        other.push({
          ref: leafRef,
          sessionId: s.id,
          digest: leaf,
          record: { kind: "leaf", id: s.id, hlc: stamp(), leafId: s.leafId, updatedAt: s.updatedAt },
        });
      }
    }
    const deleted = new Set<SessionId>();
    for (const state of states.values()) {
      if (!state.ref.startsWith("s:") || state.gone || state.sessionId === undefined) continue;
      if (live.has(state.sessionId)) continue;
      deleted.add(state.sessionId);
      other.push({
        ref: state.ref,
        sessionId: state.sessionId,
        digest: "gone",
        record: { kind: "session", id: state.sessionId, hlc: stamp(), final: true, session: null },
      });
    }
    for (const sessionId of deleted) {
      const rows = await db.syncState.where("sessionId").equals(sessionId).toArray();
      purge.push(...rows.filter((r) => !r.ref.startsWith("s:")));
    }

    const labels = await db.labels.toArray();
    const labelled = new Set<string>();
    for (const label of labels) {
      const ref = refOf("label", label.entryId);
      labelled.add(ref);
      const digest = labelDigest(label.text);
      if (states.get(ref)?.digest !== digest) {
        other.push({
          ref,
          sessionId: label.sessionId,
          digest,
          record: { kind: "label", id: label.entryId, hlc: stamp(), sessionId: label.sessionId, text: label.text },
        });
      }
    }
    for (const state of states.values()) {
      if (!state.ref.startsWith("l:") || labelled.has(state.ref) || state.sessionId === undefined) continue;
      if (deleted.has(state.sessionId) || state.digest === labelDigest(null)) continue;
      other.push({
        ref: state.ref,
        sessionId: state.sessionId,
        digest: labelDigest(null),
        record: {
          kind: "label",
          id: state.ref.slice(2) as EntryId,
          hlc: stamp(),
          sessionId: state.sessionId,
          text: null,
        },
      });
    }
    return { entryIds, blobIds, other, purge };
  });
}

export async function readEntries(ids: readonly EntryId[]): Promise<Entry[]> {
  const rows = await getDb().entries.bulkGet([...ids]);
  return rows.filter((e): e is Entry => e !== undefined);
}

export async function readBlobRecords(ids: readonly string[]): Promise<Outgoing[]> {
  const rows = await getDb().blobs.bulkGet(ids as never[]);
  const out: Outgoing[] = [];
  for (const row of rows) {
    if (!row) continue;
    out.push({ ref: refOf("blob", row.id), record: { kind: "blob", id: row.id, row: await encodeRow(row) } });
  }
  return out;
}

export const entryOutgoing = (entry: Entry): Outgoing => ({
  ref: refOf("entry", entry.id),
  sessionId: entry.sessionId,
  record: { kind: "entry", entry },
});

/** Marks records as exchanged (after their documents were written). */
export async function markSent(rows: readonly SyncStateRow[]): Promise<void> {
  if (rows.length > 0) await getDb().syncState.bulkPut([...rows]);
}
