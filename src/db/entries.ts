/**
 * Entry verbs. Entries are append-only and immutable: they are added here and removed only with
 * their session (sessions.ts deleteSession). Every write is one rw transaction over sessions +
 * entries, so "append entries, move the leaf" can never half-happen.
 */
import Dexie from "dexie";
import type { Entry, Session } from "../core/session/entries";
import type { EntryId, SessionId } from "../core/session/ids";
import {
  addEntriesChecked,
  applyLeafPolicy,
  assertLeafPolicyHolds,
  type LeafPolicy,
  requireSession,
} from "./append-tx";
import { EntryNotInSessionError, StaleLeafError } from "./errors";
import { getDb } from "./schema";

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
export async function moveLeaf(
  sessionId: SessionId,
  leafId: EntryId | null,
  /** Move only if the leaf is still this one (else StaleLeafError, nothing changes). */
  ifLeafIs?: EntryId | null,
): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.sessions, db.entries, async () => {
    const session = await requireSession(db, sessionId);
    if (ifLeafIs !== undefined && session.leafId !== ifLeafIs) {
      throw new StaleLeafError(sessionId, ifLeafIs, session.leafId);
    }
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

/**
 * Entries per request of `getEntriesInChunks`: ~0.33 MB of a typical big chat. Each answer is
 * deserialized, copied by Dexie's query cache and its keys recorded by a live query in one task:
 * 400 entries were up to 45 ms of it on a loaded machine, and 200 still 50-60 ms under a trace,
 * most of it the garbage collector's (the task's allocations grow with the chunk).
 */
const ENTRY_CHUNK = 100;

/** How `getEntriesInChunks` reads. */
export type ChunkedRead = {
  /** Entries per request (default ENTRY_CHUNK). */
  chunk?: number;
  /** Awaited before each request after the first (a hold: hold.ts). */
  between?: () => Promise<void>;
  /** Given each request's entries of the session as they arrive, to do their share of work then. */
  onChunk?: (entries: readonly Entry[]) => void;
};

/**
 * Every entry of the session, in id order, like `getEntries`, read as several small requests
 * instead of one: each reads the next `chunk` entries of the session's [sessionId+id] index after
 * the last id read. The page deserializes (and a live query clones) each answer in its own task,
 * so a 10,000-entry chat no longer holds the main thread for one 13 MB read. Entries appended
 * meanwhile have newer ids (UUIDv7): a later request finds them, or a live query's re-run does.
 * No request reads all of the session's ids: in a live query Dexie records each key a query
 * answers, and recording 10,000 at once was a 100 ms task.
 */
export async function getEntriesInChunks(
  sessionId: SessionId,
  { chunk = ENTRY_CHUNK, between = async () => {}, onChunk = () => {} }: ChunkedRead = {},
): Promise<Entry[]> {
  const db = getDb();
  const result: Entry[] = [];
  // One request at a time: the tree is read in the background while the chat is already usable,
  // and a write (the user's send) waits for every read queued before it — with all of them issued
  // at once, a send in a 20,000-entry chat waited for the whole tree (1.8 s to the first token).
  for (let last: EntryId | undefined; ; ) {
    if (last !== undefined) await between();
    const part = await db.entries
      .where("[sessionId+id]")
      .between([sessionId, last ?? Dexie.minKey], [sessionId, Dexie.maxKey], last === undefined, true)
      .limit(chunk)
      .toArray();
    for (const e of part) result.push(e);
    onChunk(part);
    if (part.length < chunk) return result;
    last = part[part.length - 1]!.id;
  }
}

export async function getEntry(id: EntryId): Promise<Entry | undefined> {
  return getDb().entries.get(id);
}

/** A session with the path from its root to one entry (root first), read together. */
export type SessionPath = { session: Session; path: Entry[] };

/** Paths already read, by their last entry's id (the walk stops at the first it finds). Must not throw. */
export type KnownPaths = (id: EntryId) => readonly Entry[] | undefined;

/**
 * The session and the path from the root to `leafId` (default: the session's leaf; null = the empty
 * path before the first root), in one read transaction, so the path always matches the session row.
 * The path is walked up by `parentId` with one keyed get per entry: the cost is the path's length,
 * never the size of the tree (a 20,000-entry chat with an 11-entry path reads 11 rows), and with
 * `known` only the entries below the newest path already read (the next send: none).
 * Undefined for an unknown session. A missing entry on the way ends the walk (the path is what
 * could be read, from the missing entry's child down).
 * @throws EntryNotInSessionError when `leafId` (or an ancestor) belongs to another session.
 */
export async function getSessionPath(
  sessionId: SessionId,
  leafId?: EntryId | null,
  known?: KnownPaths,
): Promise<SessionPath | undefined> {
  const db = getDb();
  return db.transaction("r", db.sessions, db.entries, async () => {
    const session = await db.sessions.get(sessionId);
    if (!session) return undefined;
    const reversed: Entry[] = [];
    const seen = new Set<EntryId>();
    let id = leafId === undefined ? session.leafId : leafId;
    while (id !== null && !seen.has(id)) {
      // Entries are immutable: a path read before to this entry is still its path.
      const prefix = known?.(id);
      if (prefix && prefix.at(-1)?.sessionId === sessionId)
        return { session, path: [...prefix, ...reversed.reverse()] };
      seen.add(id);
      const entry = await db.entries.get(id);
      if (!entry) break;
      if (entry.sessionId !== sessionId) throw new EntryNotInSessionError(id, sessionId);
      reversed.push(entry);
      id = entry.parentId;
    }
    return { session, path: reversed.reverse() };
  });
}

/** The session and every entry of it, from one read transaction (for what needs the whole tree). */
export async function getSessionWithEntries(
  sessionId: SessionId,
): Promise<{ session: Session | undefined; entries: Entry[] }> {
  const db = getDb();
  return db.transaction("r", db.sessions, db.entries, async () => ({
    session: await db.sessions.get(sessionId),
    entries: await db.entries.where("sessionId").equals(sessionId).toArray(),
  }));
}
