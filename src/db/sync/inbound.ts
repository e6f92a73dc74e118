/**
 * Sync records → Dexie: applies what arrived from other devices, in one transaction per batch, and
 * records each applied document in syncState (so the outbound scan does not send it back).
 * - entries and blobs: added once (immutable; a second copy of the same id changes nothing);
 * - a session's settings, its leaf, a label: last-writer-wins by clock stamp (core/sync/lww.ts);
 * - a session tombstone deletes the chat here with everything hanging off it, and records of it
 *   that arrive later are ignored;
 * - a leaf (or a label) whose entry has not arrived yet (documents arrive in any order) is deferred:
 *   the caller offers it again with a later batch;
 * - a record that does not fit what is here is refused and counted, never applied: a leaf onto an
 *   entry of another chat, an entry grafted onto another chat's entry or claiming an id another chat
 *   holds, a label naming another chat than its entry's (the caller has already checked each
 *   record's shape and that its ids are the ones its document id was made from, inbound-check.ts).
 *   A record that still breaks the write is refused alone: the rest of its batch is applied.
 */
import type { Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { replaces } from "../../core/sync/lww";
import { labelDigest, leafDigest, mergeSession, metaDigest, refOf, type SyncRecord } from "../../core/sync/records";
import { type GroveDb, getDb } from "../schema";
import { deleteSession, deleteSessionTables } from "../sessions";
import { decodeRow } from "./generic-row";
import type { SyncStateRow } from "./sync-rows";

/** One decrypted document. `losers`: leaf ids of concurrent versions this one won against. */
export type Incoming = { docId: string; rev: string; record: SyncRecord; losingLeafIds?: readonly (EntryId | null)[] };

export type ApplyOutcome = {
  /** Documents to offer again later (their leaf entry is not here yet). */
  deferred: string[];
  /** Sessions whose leaf moved away from a concurrent branch (it stays in the tree as a sibling). */
  leafConflicts: SessionId[];
  /** How many entries were added. */
  entriesAdded: number;
  /** Documents refused: their record does not fit what is here (counted and shown, never applied). */
  invalid: string[];
};

/** Errors a record's own content can cause in a write; any other failure (quota, a closed database) fails the batch. */
const RECORD_FAULTS = new Set(["TypeError", "DataError", "ConstraintError", "DataCloneError"]);

export async function applyIncoming(items: readonly Incoming[]): Promise<ApplyOutcome> {
  const db = getDb();
  // A tombstone deletes a chat here (deleteSession), inside this batch's transaction.
  const tables = [...deleteSessionTables(db), db.blobs, db.syncState];
  // Entries first, so a leaf in the same batch finds its entry.
  const order: Record<SyncRecord["kind"], number> = { blob: 0, entry: 1, session: 2, leaf: 3, label: 4 };
  const sorted = [...items].sort((a, b) => order[a.record.kind] - order[b.record.kind]);
  const emptyOutcome = (): ApplyOutcome => ({ deferred: [], leafConflicts: [], entriesAdded: 0, invalid: [] });
  try {
    return await db.transaction("rw", tables, async () => {
      const outcome = emptyOutcome();
      for (const item of sorted) await applyOne(db, item, outcome);
      return outcome;
    });
  } catch (e) {
    if (!isRecordFault(e)) throw e;
  }
  // Some record broke the batch's transaction (rolled back whole): each on its own, the culprit refused.
  const outcome = emptyOutcome();
  for (const item of sorted) {
    try {
      await db.transaction("rw", tables, () => applyOne(db, item, outcome));
    } catch (e) {
      if (!isRecordFault(e)) throw e;
      outcome.invalid.push(item.docId);
    }
  }
  return outcome;
}

function isRecordFault(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return typeof name === "string" && RECORD_FAULTS.has(name);
}

async function isGone(db: GroveDb, sessionId: SessionId): Promise<boolean> {
  return Boolean((await db.syncState.get(refOf("session", sessionId)))?.gone);
}

async function applyOne(db: GroveDb, item: Incoming, outcome: ApplyOutcome): Promise<void> {
  const { record, docId, rev } = item;
  const mark = (row: Omit<SyncStateRow, "docId" | "rev">) => db.syncState.put({ ...row, docId, rev });
  switch (record.kind) {
    case "entry": {
      const { entry } = record;
      if (await isGone(db, entry.sessionId)) return;
      const here = await db.entries.get(entry.id);
      const parent = entry.parentId === null ? undefined : await db.entries.get(entry.parentId);
      if ((here && here.sessionId !== entry.sessionId) || (parent && parent.sessionId !== entry.sessionId)) {
        outcome.invalid.push(docId);
        return;
      }
      if (here === undefined) {
        await db.entries.add(entry);
        outcome.entriesAdded++;
      }
      await mark({ ref: refOf("entry", entry.id), sessionId: entry.sessionId });
      return;
    }
    case "blob": {
      if ((await db.blobs.get(record.id as never)) === undefined) await db.blobs.put(decodeRow(record.row) as never);
      await mark({ ref: refOf("blob", record.id) });
      return;
    }
    case "session": {
      const ref = refOf("session", record.id);
      const state = await db.syncState.get(ref);
      if (state?.gone) return;
      if (record.final) {
        await deleteSession(record.id);
        await db.syncState.where("sessionId").equals(record.id).delete();
        await mark({ ref, sessionId: record.id, hlc: record.hlc, digest: "gone", gone: true });
        return;
      }
      const local = await db.sessions.get(record.id);
      // An edit made here and not yet stamped (the outbound scan runs shortly after each change) is
      // newer than anything received now: it wins, and goes out with a later stamp.
      if (local && state && state.digest !== metaDigest(local)) return;
      if (!replaces({ hlc: record.hlc }, state?.hlc ? { hlc: state.hlc } : undefined)) return;
      const merged = mergeSession(local, record.session ?? undefined, undefined);
      if (!merged) return;
      await db.sessions.put(merged);
      await mark({ ref, sessionId: record.id, hlc: record.hlc, digest: metaDigest(merged) });
      return;
    }
    case "leaf": {
      if (await isGone(db, record.id)) return;
      const local = await db.sessions.get(record.id);
      const target = record.leafId === null ? null : await db.entries.get(record.leafId);
      if (target && target.sessionId !== record.id) {
        outcome.invalid.push(docId); // never a leaf on another chat's entry
        return;
      }
      if (!local || target === undefined) {
        outcome.deferred.push(docId);
        return;
      }
      const ref = refOf("leaf", record.id);
      const state = await db.syncState.get(ref);
      const wins = replaces({ hlc: record.hlc }, state?.hlc ? { hlc: state.hlc } : undefined);
      const winnerLeaf = wins ? record.leafId : local.leafId;
      // A move made here and not yet stamped is newer (see the session case): it wins. When the
      // incoming leaf is on another branch, the two devices went on at the same time: this device
      // keeps its branch and is told (the other device then takes this leaf as a plain update,
      // with no server conflict to report it).
      if (state && state.digest !== leafDigest(local)) {
        if (await leftABranch(db, local.leafId, [record.leafId])) outcome.leafConflicts.push(record.id);
        return;
      }
      const losers = item.losingLeafIds ?? [];
      if (await leftABranch(db, winnerLeaf, losers)) outcome.leafConflicts.push(record.id);
      if (!wins) return;
      const merged: Session = { ...local, leafId: record.leafId, updatedAt: record.updatedAt };
      await db.sessions.put(merged);
      await mark({ ref, sessionId: record.id, hlc: record.hlc, digest: leafDigest(merged) });
      return;
    }
    case "label": {
      if (await isGone(db, record.sessionId)) return;
      const entry = await db.entries.get(record.id);
      if (entry && entry.sessionId !== record.sessionId) {
        outcome.invalid.push(docId);
        return;
      }
      if (!entry && record.text !== null) {
        outcome.deferred.push(docId); // its entry has not arrived: the label waits for it
        return;
      }
      const ref = refOf("label", record.id);
      const state = await db.syncState.get(ref);
      const here = (await db.labels.get(record.id))?.text ?? null;
      if (state && state.digest !== labelDigest(here)) return; // changed here, not yet stamped: newer
      if (!replaces({ hlc: record.hlc }, state?.hlc ? { hlc: state.hlc } : undefined)) return;
      if (record.text === null) await db.labels.delete(record.id);
      else await db.labels.put({ entryId: record.id, sessionId: record.sessionId, text: record.text });
      await mark({ ref, sessionId: record.sessionId, hlc: record.hlc, digest: labelDigest(record.text) });
      return;
    }
  }
}

/**
 * Whether some losing leaf is off the winner's path: a branch the user was on that is no longer
 * shown (it stays in the tree, reachable as a sibling). A loser on the winner's path is just an
 * older position of the same branch, nothing to say.
 */
async function leftABranch(db: GroveDb, winner: EntryId | null, losers: readonly (EntryId | null)[]): Promise<boolean> {
  const relevant = losers.filter((l): l is EntryId => l !== null && l !== winner);
  if (relevant.length === 0) return false;
  const path = new Set<EntryId>();
  let at = winner;
  while (at !== null && !path.has(at)) {
    path.add(at);
    at = (await db.entries.get(at))?.parentId ?? null;
  }
  return relevant.some((l) => !path.has(l));
}
