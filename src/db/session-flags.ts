/** Chat-list verbs: pin, archive, and deleting several chats at once. */
import type { SessionId } from "../core/session/ids";
import { SessionNotFoundError } from "./errors";
import { getDb } from "./schema";
import { deleteSession, deleteSessionTables } from "./sessions";

export type SessionFlags = { pinned?: boolean; archived?: boolean };

/**
 * Sets or clears a chat's pin and archive flags (false clears: the field is removed, so rows stay as
 * light as before). Archiving unpins: an archived chat is out of the list. @throws SessionNotFoundError
 */
export async function setSessionFlags(id: SessionId, flags: SessionFlags): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.sessions, async () => {
    const session = await db.sessions.get(id);
    if (!session) throw new SessionNotFoundError(id);
    const next = { ...session };
    if (flags.archived === true) {
      next.archived = true;
      delete next.pinned;
    } else if (flags.archived === false) delete next.archived;
    if (flags.pinned === true) next.pinned = true;
    else if (flags.pinned === false) delete next.pinned;
    await db.sessions.put(next);
  });
}

/** Deletes every chat in `ids` with all that hangs off it (deleteSession), in one transaction: all or none. */
export async function deleteSessions(ids: readonly SessionId[]): Promise<void> {
  const db = getDb();
  await db.transaction("rw", deleteSessionTables(db), async () => {
    for (const id of ids) await deleteSession(id);
  });
}
