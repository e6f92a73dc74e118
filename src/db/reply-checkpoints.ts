/**
 * The reply in flight. state/ checkpoints it with saveCheckpoint on a throttle (never per token), turns
 * it into an entry with finalizeCheckpoint when the stream ends, and after a reload recovers checkpoints whose
 * page is gone as `interrupted` assistant entries.
 */
import type { MessageEntry } from "../core/session/entries";
import type { EntryId } from "../core/session/ids";
import { addEntriesChecked, applyLeafPolicy, type LeafPolicy, requireSession } from "./append-tx";
import type { ReplyCheckpoint } from "./rows";
import { getDb } from "./schema";

/**
 * Writes the checkpoint (one row, replacing the previous checkpoint). Returns false, writing nothing,
 * when the reply already exists as an entry: a throttled checkpoint that fires after finalizeCheckpoint
 * must not resurrect the checkpoint (the UI would show a ghost reply in flight).
 */
export async function saveCheckpoint(checkpoint: ReplyCheckpoint): Promise<boolean> {
  const db = getDb();
  return db.transaction("rw", db.entries, db.drafts, async () => {
    if ((await db.entries.get(checkpoint.id)) !== undefined) return false;
    await db.drafts.put(checkpoint);
    return true;
  });
}

/** Drops a checkpoint without keeping anything (e.g. a reply that failed before any content). */
export async function deleteCheckpoint(id: EntryId): Promise<void> {
  await getDb().drafts.delete(id);
}

export async function listCheckpoints(): Promise<ReplyCheckpoint[]> {
  return getDb().drafts.toArray();
}

/**
 * The reply is finished: in one transaction, append `entry` (same checks as appendEntries), delete
 * the checkpoint `checkpointId`, move the leaf per `leaf`, bump the session's updatedAt to `now`.
 * A missing checkpoint is fine (a reply that never checkpointed); an entry id that exists is not
 * (e.g. another tab already recovered the checkpoint): AppendOnlyError, and nothing changes.
 * @throws SessionNotFoundError, EntryNotInSessionError, AppendOnlyError, DanglingParentError
 */
export async function finalizeCheckpoint(
  checkpointId: EntryId,
  entry: MessageEntry,
  leaf: LeafPolicy,
  now: number = Date.now(),
): Promise<{ leafMoved: boolean }> {
  const db = getDb();
  return db.transaction("rw", db.sessions, db.entries, db.drafts, async () => {
    const session = await requireSession(db, entry.sessionId);
    await addEntriesChecked(db, entry.sessionId, [entry]);
    await db.drafts.delete(checkpointId);
    return { leafMoved: await applyLeafPolicy(db, session, leaf, [entry], now) };
  });
}

/**
 * Owner liveness check. Contract: may be slow or async (BroadcastChannel ping, Web Locks query);
 * it is awaited before any transaction opens. Should not throw; a throw aborts the recovery
 * before anything is written.
 */
export type IsOwnerAlive = (ownerId: string) => boolean | Promise<boolean>;

/**
 * Turns every checkpoint whose owner is gone into an assistant message with status "interrupted" (same
 * id, parent and content as the checkpoint), deletes the checkpoint, and moves the leaf to it only if the
 * leaf is still the checkpoint's parent (the user has not moved on). One transaction per checkpoint; checkpoints
 * of deleted sessions, and of replies that
 * exist already, are just deleted. Returns the ids of the entries appended.
 *
 * Liveness is decided first, outside any transaction: awaiting non-Dexie work inside one would
 * commit it early (PrematureCommitError).
 */
export async function recoverOrphanedCheckpoints(isOwnerAlive: IsOwnerAlive, now: number): Promise<EntryId[]> {
  const checkpoints = await listCheckpoints();
  const alive = new Map<string, boolean>();
  for (const ownerId of new Set(checkpoints.map((d) => d.ownerId))) {
    alive.set(ownerId, await isOwnerAlive(ownerId));
  }
  const orphans = checkpoints.filter((d) => alive.get(d.ownerId) === false);

  const recovered: EntryId[] = [];
  for (const orphan of orphans) {
    if (await recoverOne(orphan.id, orphan.ownerId, now)) recovered.push(orphan.id);
  }
  return recovered;
}

async function recoverOne(checkpointId: EntryId, ownerId: string, now: number): Promise<boolean> {
  const db = getDb();
  return db.transaction("rw", db.sessions, db.entries, db.drafts, async () => {
    // Re-read: between the listing and now the checkpoint may have been finalized, deleted, or
    // re-checkpointed with more content (same owner) or taken over by another owner.
    const checkpoint = await db.drafts.get(checkpointId);
    if (!checkpoint || checkpoint.ownerId !== ownerId) return false;
    const session = await db.sessions.get(checkpoint.sessionId);
    // A checkpoint whose session is gone, or one whose reply exists already (saveCheckpoint refuses that, but
    // a row may predate the check), has nothing to recover: drop it.
    if (!session || (await db.entries.get(checkpointId)) !== undefined) {
      await db.drafts.delete(checkpointId);
      return false;
    }
    const entry = interruptedEntry(checkpoint);
    await addEntriesChecked(db, checkpoint.sessionId, [entry]);
    await db.drafts.delete(checkpointId);
    await applyLeafPolicy(
      db,
      session,
      { kind: "move-if-leaf-is", expected: checkpoint.parentId, to: entry.id },
      [entry],
      now,
    );
    return true;
  });
}

function interruptedEntry(checkpoint: ReplyCheckpoint): MessageEntry {
  return {
    id: checkpoint.id,
    sessionId: checkpoint.sessionId,
    parentId: checkpoint.parentId,
    createdAt: checkpoint.startedAt,
    type: "message",
    role: "assistant",
    content: checkpoint.content,
    status: "interrupted",
    ...(checkpoint.provider !== undefined && { provider: checkpoint.provider }),
    ...(checkpoint.api !== undefined && { api: checkpoint.api }),
    ...(checkpoint.model !== undefined && { model: checkpoint.model }),
    ...(checkpoint.usage !== undefined && { usage: checkpoint.usage }),
  };
}
