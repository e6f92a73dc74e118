/**
 * Labels: the user's bookmarks on entries. Mutable metadata, not part of the conversation, so
 * unlike entries they are overwritten and deleted. Rows carry their sessionId (indexed) so a
 * session's labels are one range and deleteSession can remove them.
 */
import type { EntryId, SessionId } from "../core/session/ids";
import { EntryNotFoundError } from "./errors";
import { getDb } from "./schema";

/**
 * Sets the label of an entry; null or blank text removes it.
 * @throws EntryNotFoundError (the entry does not exist)
 */
export async function setLabel(entryId: EntryId, text: string | null): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.entries, db.labels, async () => {
    const entry = await db.entries.get(entryId);
    if (!entry) throw new EntryNotFoundError(entryId);
    const trimmed = text?.trim() ?? "";
    if (trimmed === "") await db.labels.delete(entryId);
    else await db.labels.put({ entryId, sessionId: entry.sessionId, text: trimmed });
  });
}

/** The session's labels, by entry id. */
export async function getLabels(sessionId: SessionId): Promise<Map<EntryId, string>> {
  const rows = await getDb().labels.where("sessionId").equals(sessionId).toArray();
  return new Map(rows.map((r) => [r.entryId, r.text]));
}
