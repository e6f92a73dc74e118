/**
 * Queued messages (DESIGN §4.7): what the user sent while maintenance ran on a chat, one row per
 * chat, kept until it is sent or discarded, so neither opening another chat nor a reload loses it.
 */
import type { SessionId } from "../core/session/ids";
import type { QueuedRow } from "./rows";
import { getDb } from "./schema";

/** Adds `text` to the chat's queued message (a second message joins the first after a blank line). */
export async function appendQueued(
  sessionId: SessionId,
  text: string,
  now: number,
  ownerId: string,
): Promise<QueuedRow> {
  const db = getDb();
  return db.transaction("rw", db.queued, async () => {
    const before = await db.queued.get(sessionId);
    const row: QueuedRow = before
      ? { ...before, text: `${before.text}\n\n${text}`, ownerId }
      : { sessionId, text, queuedAt: now, ownerId };
    await db.queued.put(row);
    return row;
  });
}

/** Replaces the chat's queued message with `row` (moving a message to another chat). */
export async function putQueued(row: QueuedRow): Promise<void> {
  await getDb().queued.put(row);
}

export async function getQueued(sessionId: SessionId): Promise<QueuedRow | undefined> {
  return getDb().queued.get(sessionId);
}

/** Every queued message, of every chat. */
export async function listQueued(): Promise<QueuedRow[]> {
  return getDb().queued.toArray();
}

/**
 * Takes the chat's queued message out of the table (read and delete in one transaction), so of two
 * tabs offering to send the same message only one gets it. Undefined when it is gone already.
 */
export async function takeQueued(sessionId: SessionId): Promise<QueuedRow | undefined> {
  const db = getDb();
  return db.transaction("rw", db.queued, async () => {
    const row = await db.queued.get(sessionId);
    if (row) await db.queued.delete(sessionId);
    return row;
  });
}

export async function deleteQueued(sessionId: SessionId): Promise<void> {
  await getDb().queued.delete(sessionId);
}
