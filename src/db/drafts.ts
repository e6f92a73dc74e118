/**
 * The reply in flight. state/ checkpoints it with saveDraft on a throttle (never per token), turns
 * it into an entry with finalizeDraft when the stream ends, and after a reload recovers drafts whose
 * page is gone as `interrupted` assistant entries.
 */
import type { MessageEntry } from "../core/session/entries";
import type { EntryId } from "../core/session/ids";
import { addEntriesChecked, applyLeafPolicy, type LeafPolicy, requireSession } from "./append-tx";
import type { Draft } from "./rows";
import { getDb } from "./schema";

/**
 * Writes the draft (one row, replacing the previous checkpoint). Returns false, writing nothing,
 * when the reply already exists as an entry: a throttled checkpoint that fires after finalizeDraft
 * must not resurrect the draft (the UI would show a ghost reply in flight).
 */
export async function saveDraft(draft: Draft): Promise<boolean> {
  const db = getDb();
  return db.transaction("rw", db.entries, db.drafts, async () => {
    if ((await db.entries.get(draft.id)) !== undefined) return false;
    await db.drafts.put(draft);
    return true;
  });
}

/** Drops a draft without keeping anything (e.g. a reply that failed before any content). */
export async function deleteDraft(id: EntryId): Promise<void> {
  await getDb().drafts.delete(id);
}

export async function listDrafts(): Promise<Draft[]> {
  return getDb().drafts.toArray();
}

/**
 * The reply is finished: in one transaction, append `entry` (same checks as appendEntries), delete
 * the draft `draftId`, move the leaf per `leaf`, bump the session's updatedAt to `now`.
 * A missing draft is fine (a reply that never checkpointed); an entry id that exists is not
 * (e.g. another tab already recovered the draft): AppendOnlyError, and nothing changes.
 * @throws SessionNotFoundError, EntryNotInSessionError, AppendOnlyError, DanglingParentError
 */
export async function finalizeDraft(
  draftId: EntryId,
  entry: MessageEntry,
  leaf: LeafPolicy,
  now: number = Date.now(),
): Promise<{ leafMoved: boolean }> {
  const db = getDb();
  return db.transaction("rw", db.sessions, db.entries, db.drafts, async () => {
    const session = await requireSession(db, entry.sessionId);
    await addEntriesChecked(db, entry.sessionId, [entry]);
    await db.drafts.delete(draftId);
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
 * Turns every draft whose owner is gone into an assistant message with status "interrupted" (same
 * id, parent and content as the draft), deletes the draft, and moves the leaf to it only if the
 * leaf is still the draft's parent (the user has not moved on). One transaction per draft; drafts
 * of deleted sessions, and of replies that
 * exist already, are just deleted. Returns the ids of the entries appended.
 *
 * Liveness is decided first, outside any transaction: awaiting non-Dexie work inside one would
 * commit it early (PrematureCommitError).
 */
export async function recoverOrphanedDrafts(isOwnerAlive: IsOwnerAlive, now: number): Promise<EntryId[]> {
  const drafts = await listDrafts();
  const alive = new Map<string, boolean>();
  for (const ownerId of new Set(drafts.map((d) => d.ownerId))) {
    alive.set(ownerId, await isOwnerAlive(ownerId));
  }
  const orphans = drafts.filter((d) => alive.get(d.ownerId) === false);

  const recovered: EntryId[] = [];
  for (const orphan of orphans) {
    if (await recoverOne(orphan.id, orphan.ownerId, now)) recovered.push(orphan.id);
  }
  return recovered;
}

async function recoverOne(draftId: EntryId, ownerId: string, now: number): Promise<boolean> {
  const db = getDb();
  return db.transaction("rw", db.sessions, db.entries, db.drafts, async () => {
    // Re-read: between the listing and now the draft may have been finalized, deleted, or
    // re-checkpointed with more content (same owner) or taken over by another owner.
    const draft = await db.drafts.get(draftId);
    if (!draft || draft.ownerId !== ownerId) return false;
    const session = await db.sessions.get(draft.sessionId);
    // A draft whose session is gone, or one whose reply exists already (saveDraft refuses that, but
    // a row may predate the check), has nothing to recover: drop it.
    if (!session || (await db.entries.get(draftId)) !== undefined) {
      await db.drafts.delete(draftId);
      return false;
    }
    const entry = interruptedEntry(draft);
    await addEntriesChecked(db, draft.sessionId, [entry]);
    await db.drafts.delete(draftId);
    await applyLeafPolicy(
      db,
      session,
      { kind: "move-if-leaf-is", expected: draft.parentId, to: entry.id },
      [entry],
      now,
    );
    return true;
  });
}

function interruptedEntry(draft: Draft): MessageEntry {
  return {
    id: draft.id,
    sessionId: draft.sessionId,
    parentId: draft.parentId,
    createdAt: draft.startedAt,
    type: "message",
    role: "assistant",
    content: draft.content,
    status: "interrupted",
    ...(draft.provider !== undefined && { provider: draft.provider }),
    ...(draft.api !== undefined && { api: draft.api }),
    ...(draft.model !== undefined && { model: draft.model }),
    ...(draft.usage !== undefined && { usage: draft.usage }),
  };
}
