/**
 * The append-and-move-the-leaf step shared by createSession, appendEntries, finalizeCheckpoint and
 * checkpoint recovery. These helpers must run inside a caller's rw transaction over (at least)
 * sessions + entries; they only await Dexie calls and never catch, so a throw rolls back everything.
 */
import type { Entry, Session } from "../core/session/entries";
import type { EntryId, SessionId } from "../core/session/ids";
import {
  AppendOnlyError,
  DanglingParentError,
  EntryNotInSessionError,
  SessionNotFoundError,
  StaleLeafError,
} from "./errors";
import type { GroveDb } from "./schema";

/**
 * What to do with the session's leaf after an append:
 * - `move`: point it at `to` (an entry of the session or of the batch; null = before the first root);
 * - `move-if-leaf-is`: move to `to` only if the leaf is still `expected` (another tab may have
 *   moved it meanwhile; then the appended entries stay in the tree as siblings, unselected);
 * - `only-if-leaf-is`: append at all only if the leaf is still `expected`, then move to `to`;
 *   otherwise throw StaleLeafError and write nothing (a maintenance result computed for a leaf
 *   that has since moved — e.g. a compaction while another tab sent a message — is stale);
 * - `keep`: leave it.
 */
export type LeafPolicy =
  | { kind: "move"; to: EntryId | null }
  | { kind: "move-if-leaf-is"; expected: EntryId | null; to: EntryId }
  | { kind: "only-if-leaf-is"; expected: EntryId | null; to: EntryId }
  | { kind: "keep" };

/** Throws StaleLeafError when an `only-if-leaf-is` policy no longer holds. Call before writing. */
export function assertLeafPolicyHolds(session: Session, policy: LeafPolicy): void {
  if (policy.kind === "only-if-leaf-is" && session.leafId !== policy.expected) {
    throw new StaleLeafError(session.id, policy.expected, session.leafId);
  }
}

export async function requireSession(db: GroveDb, sessionId: SessionId): Promise<Session> {
  const session = await db.sessions.get(sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  return session;
}

/**
 * Checks the batch against the append-only rules, then adds it:
 * every entry belongs to `sessionId`; no id exists already (in the DB or earlier in the batch);
 * every parentId is earlier in the batch or an entry of the session in the DB.
 */
export async function addEntriesChecked(db: GroveDb, sessionId: SessionId, entries: readonly Entry[]): Promise<void> {
  if (entries.length === 0) return;
  const batchIds = new Set<EntryId>();
  for (const e of entries) {
    if (e.sessionId !== sessionId) throw new EntryNotInSessionError(e.id, sessionId);
    if (batchIds.has(e.id)) throw new AppendOnlyError(e.id);
    batchIds.add(e.id);
  }

  const existing = await db.entries.bulkGet([...batchIds]);
  const clash = existing.find((e) => e !== undefined);
  if (clash) throw new AppendOnlyError(clash.id);

  const seen = new Set<EntryId>();
  const outsideParents = new Map<EntryId, EntryId>(); // parentId -> first child asking for it
  for (const e of entries) {
    if (e.parentId !== null && !seen.has(e.parentId)) {
      // A parent later in the batch is still dangling: a child is never added before its parent.
      if (batchIds.has(e.parentId)) throw new DanglingParentError(e.id, e.parentId);
      if (!outsideParents.has(e.parentId)) outsideParents.set(e.parentId, e.id);
    }
    seen.add(e.id);
  }
  if (outsideParents.size > 0) {
    const parentIds = [...outsideParents.keys()];
    const parents = await db.entries.bulkGet(parentIds);
    parents.forEach((parent, i) => {
      const parentId = parentIds[i]!;
      if (parent === undefined || parent.sessionId !== sessionId) {
        throw new DanglingParentError(outsideParents.get(parentId)!, parentId);
      }
    });
  }

  await db.entries.bulkAdd([...entries]);
}

/** Whether `id` is the id of an entry of the session, in the DB or in `batch`. */
async function isInSession(db: GroveDb, sessionId: SessionId, id: EntryId, batch: readonly Entry[]): Promise<boolean> {
  if (batch.some((e) => e.id === id)) return true;
  const row = await db.entries.get(id);
  return row !== undefined && row.sessionId === sessionId;
}

/**
 * Applies `policy` to `session` (as read earlier in the same transaction), bumps updatedAt to
 * `now` (never backwards), and writes the session row. Returns whether the leaf moved.
 */
export async function applyLeafPolicy(
  db: GroveDb,
  session: Session,
  policy: LeafPolicy,
  batch: readonly Entry[],
  now: number,
): Promise<boolean> {
  let to: EntryId | null = session.leafId;
  let moved = false;
  if (
    policy.kind === "move" ||
    policy.kind === "only-if-leaf-is" ||
    (policy.kind === "move-if-leaf-is" && session.leafId === policy.expected)
  ) {
    if (policy.to !== null && !(await isInSession(db, session.id, policy.to, batch))) {
      throw new EntryNotInSessionError(policy.to, session.id);
    }
    to = policy.to;
    moved = true;
  }
  await db.sessions.update(session.id, { leafId: to, updatedAt: Math.max(session.updatedAt, now) });
  return moved;
}
