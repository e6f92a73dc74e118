/**
 * Entry verbs. Entries are append-only and immutable: they are added here and removed only with
 * their session (sessions.ts deleteSession). Every write is one rw transaction over sessions +
 * entries, so "append entries, move the leaf" can never half-happen.
 */
import type { Entry } from "../core/session/entries";
import type { EntryId, SessionId } from "../core/session/ids";
import {
  addEntriesChecked,
  applyLeafPolicy,
  assertLeafPolicyHolds,
  type LeafPolicy,
  requireSession,
} from "./append-tx";
import { EntryNotInSessionError } from "./errors";
import { getDb } from "./schema";

export type { LeafPolicy } from "./append-tx";

/**
 * Appends `entries` (parents before children) to the session and moves its leaf per `leaf`, in one
 * transaction; bumps the session's `updatedAt` to `now`.
 * @throws SessionNotFoundError, EntryNotInSessionError (an entry of another session, or a leaf
 *   target outside the session), AppendOnlyError (an id that exists), DanglingParentError,
 *   StaleLeafError (an `only-if-leaf-is` policy whose leaf moved).
 *   On any throw nothing is written.
 * @example
 * await appendEntries(sid, [userMsg], { kind: "move", to: userMsg.id });
 */
export async function appendEntries(
  sessionId: SessionId,
  entries: readonly Entry[],
  leaf: LeafPolicy,
  now: number = Date.now(),
): Promise<{ leafMoved: boolean }> {
  const db = getDb();
  return db.transaction("rw", db.sessions, db.entries, async () => {
    const session = await requireSession(db, sessionId);
    assertLeafPolicyHolds(session, leaf);
    await addEntriesChecked(db, sessionId, entries);
    return { leafMoved: await applyLeafPolicy(db, session, leaf, entries, now) };
  });
}

/**
 * Points the session's leaf at `leafId` (null = no position, before the first root). Changes nothing
 * else: not `updatedAt` either, since navigating a tree is not new content.
 * @throws SessionNotFoundError, EntryNotInSessionError
 */
export async function moveLeaf(sessionId: SessionId, leafId: EntryId | null): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.sessions, db.entries, async () => {
    await requireSession(db, sessionId);
    if (leafId !== null) {
      const entry = await db.entries.get(leafId);
      if (!entry || entry.sessionId !== sessionId) throw new EntryNotInSessionError(leafId, sessionId);
    }
    await db.sessions.update(sessionId, { leafId });
  });
}

/** Every entry of the session, in id order (UUIDv7: creation order). Empty for an unknown session. */
export async function getEntries(sessionId: SessionId): Promise<Entry[]> {
  return getDb().entries.where("sessionId").equals(sessionId).toArray();
}

export async function getEntry(id: EntryId): Promise<Entry | undefined> {
  return getDb().entries.get(id);
}
