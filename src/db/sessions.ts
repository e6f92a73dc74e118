/**
 * Session verbs: create (with its first entries), read, list, rename, settings, delete (search: db/search).
 * Session rows stay light (no entries inside) so the list reads only the sessions table.
 */
import type { ChatParams } from "../core/session/chat-params";
import type { ChatTools } from "../core/session/chat-tools";
import type { Entry, ModelRef, Session } from "../core/session/entries";
import { compareIds, type EntryId, type SessionId } from "../core/session/ids";
import { addEntriesChecked } from "./append-tx";
import { deleteComposerDraftOf } from "./composer-drafts";
import { EntryNotInSessionError, SessionNotFoundError } from "./errors";
import { type GroveDb, getDb } from "./schema";

/**
 * Adds the session and its first entries (e.g. a handoff's first entry) in one transaction. The
 * entries pass the same checks as appendEntries; `session.leafId` must be null or one of them.
 * @throws EntryNotInSessionError, AppendOnlyError, DanglingParentError; Dexie's ConstraintError if
 *   the session id exists. On any throw nothing is written.
 */
export async function createSession(session: Session, entries: readonly Entry[] = []): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.sessions, db.entries, async () => {
    if (session.leafId !== null && !entries.some((e) => e.id === session.leafId)) {
      throw new EntryNotInSessionError(session.leafId, session.id);
    }
    await db.sessions.add(session);
    await addEntriesChecked(db, session.id, entries);
  });
}

export async function getSession(id: SessionId): Promise<Session | undefined> {
  return getDb().sessions.get(id);
}

/** All sessions, most recently updated first. */
export async function listSessions(): Promise<Session[]> {
  return getDb().sessions.orderBy("updatedAt").reverse().toArray();
}

/**
 * The sessions handed off from `sessionId` (whose `parentSessionId` is it), oldest first: what the
 * old session's "Handed off to <title>" link shows. A filter over the sessions table, not an index:
 * session rows are light and the session list reads them all anyway, and an index on
 * `parentSessionId` would need a schema version for a handful of rows.
 */
export async function childSessions(sessionId: SessionId): Promise<Session[]> {
  const rows = await getDb()
    .sessions.filter((s) => s.parentSessionId === sessionId)
    .toArray();
  return rows.sort((a, b) => a.createdAt - b.createdAt || compareIds(a.id, b.id));
}

/** A title the user chose: automatic titles never replace it. @throws SessionNotFoundError */
export async function renameSession(id: SessionId, title: string): Promise<void> {
  const updated = await getDb().sessions.update(id, { title, titleSource: "user" });
  if (updated === 0) throw new SessionNotFoundError(id);
}

/**
 * Sets an automatic title unless the user has named the session. Returns whether it was applied;
 * a session deleted meanwhile (the title call is slow, the user is not) is not an error: false.
 */
export async function setAutoTitle(id: SessionId, title: string): Promise<boolean> {
  const updated = await getDb()
    .sessions.where("id")
    .equals(id)
    .and((s) => s.titleSource === "auto")
    .modify({ title });
  return updated > 0;
}

/**
 * Per-session overrides. For each field: absent = unchanged, null = clear the override (use the
 * global default again), a value = set it.
 */
export type SessionPatch = {
  systemPrompt?: string | null;
  model?: ModelRef | null;
  params?: ChatParams | null;
  tools?: ChatTools | null;
};

/** @throws SessionNotFoundError */
export async function updateSession(id: SessionId, patch: SessionPatch): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.sessions, async () => {
    const session = await db.sessions.get(id);
    if (!session) throw new SessionNotFoundError(id);
    const next: Session = { ...session };
    if (patch.systemPrompt === null) delete next.systemPrompt;
    else if (patch.systemPrompt !== undefined) next.systemPrompt = patch.systemPrompt;
    if (patch.model === null) delete next.model;
    else if (patch.model !== undefined) next.model = { ...patch.model };
    if (patch.params === null) delete next.params;
    else if (patch.params !== undefined) next.params = { ...patch.params };
    if (patch.tools === null) delete next.tools;
    else if (patch.tools !== undefined) next.tools = patch.tools;
    await db.sessions.put(next);
  });
}

/**
 * The tables deleteSession writes: a caller's transaction around it (deleting several chats, a
 * synced tombstone) must name every one of them, so they are listed here once.
 */
export const deleteSessionTables = (db: GroveDb) => [
  db.sessions,
  db.entries,
  db.drafts,
  db.labels,
  db.tokenCounts,
  db.queued,
  db.composerDrafts,
  db.composerAttachments,
  db.memoryCheckCosts,
];

/**
 * Deletes the session with everything that hangs off it: entries, drafts, labels, the token counts
 * of its entries, its queued message, its composer draft and its memory checks' costs, in one transaction. Deleting a missing session is a no-op.
 * Blobs are kept: nothing records which sessions reference a blob yet (see db/README.md).
 */
export async function deleteSession(id: SessionId): Promise<void> {
  const db = getDb();
  await db.transaction("rw", deleteSessionTables(db), async () => {
    const entryIds = await db.entries.where("sessionId").equals(id).primaryKeys();
    await deleteTokenCountsOf(db, entryIds);
    await db.entries.bulkDelete(entryIds);
    await db.drafts.where("sessionId").equals(id).delete();
    await db.labels.where("sessionId").equals(id).delete();
    await db.memoryCheckCosts.where("sessionId").equals(id).delete();
    await db.queued.delete(id);
    await deleteComposerDraftOf(db, id);
    await db.sessions.delete(id);
  });
}

// tokenCounts is keyed [entryId+encoding]; Dexie serves `where("entryId")` from that compound
// primary key (a "virtual index"), so this is one indexed range per entry, not a table scan.
async function deleteTokenCountsOf(db: GroveDb, entryIds: readonly EntryId[]): Promise<void> {
  if (entryIds.length === 0) return;
  await db.tokenCounts
    .where("entryId")
    .anyOf([...entryIds])
    .delete();
}
