/**
 * The first screen of a chat: the session row and the last entries of the path to its leaf, read
 * by walking `parentId` up from the leaf (from the session's newest entries, read in one request,
 * else with keyed gets). The cost is at most `count` + `prefetch` rows whatever the size of the
 * tree, so opening a 10,000-entry chat shows its end as soon as a 2-message chat would; the whole
 * tree is read afterwards (live.ts liveSessionWithEntries). Reads only: no writes here.
 */
import Dexie from "dexie";
import type { Entry, Session } from "../core/session/entries";
import type { EntryId, SessionId } from "../core/session/ids";
import { getDb } from "./schema";

/**
 * Entries read for the first screen at most: more than a tall window shows of short messages (a row
 * is at least ~80 px; the list draws no overscan while a chat opens), so the user at the end of the
 * chat sees no gap while the rest of the path is read. Each is one keyed read (~0.1-1 ms); a caller
 * that knows what fills its screen stops the walk sooner (`enough`).
 */
export const TAIL_ENTRIES = 30;

/**
 * The session's newest entries up to its leaf, read in one request before the walk (ids are
 * UUIDv7: creation order): a path's end is usually among them, so the walk takes most entries from
 * memory instead of one IndexedDB round trip each. Not more: where the entries just before the
 * leaf are on other branches, a larger prefetch is paid for and unused (100 cost ~13 ms on a
 * 10,000-entry chat, 30 ~6 ms).
 */
export const TAIL_PREFETCH = 30;

/** Whether the path's last entries read so far (newest first) fill the first screen. */
export type TailEnough = (newestFirst: readonly Entry[]) => boolean;

export type SessionTail = {
  /** Undefined when the session does not exist. */
  session: Session | undefined;
  /** The last entries of the path to the session's leaf, root side first; the leaf is the last one. */
  path: Entry[];
  /** `path` is the whole path (it starts at a root, or the session has no leaf). */
  whole: boolean;
};

/**
 * The session and at most `count` entries of its leaf's path, in one read transaction, so the path
 * matches the session row: its last entry is the row's leaf (entries are written before or with the
 * leaf that points to them). A missing entry, an entry of another session or a cycle ends the walk;
 * the path is then not `whole`, and the full read that follows settles what the chat shows.
 * The walk reads its entries from the session's `prefetch` newest where it can, else by key, and
 * stops early once `enough` says the entries read fill the screen.
 */
export async function getSessionTail(
  sessionId: SessionId,
  count: number = TAIL_ENTRIES,
  prefetch: number = TAIL_PREFETCH,
  enough?: TailEnough,
): Promise<SessionTail> {
  const db = getDb();
  return db.transaction("r", db.sessions, db.entries, async () => {
    const session = await db.sessions.get(sessionId);
    if (!session) return { session, path: [], whole: true };
    const recent = new Map<EntryId, Entry>();
    if (session.leafId !== null && prefetch > 0) {
      // The newest up to the leaf itself: its ancestors were written before it, and what other
      // branches got since (a regenerated answer, an edit, the chat before a switch back) is not read.
      const newest = await db.entries
        .where("[sessionId+id]")
        .between([sessionId, Dexie.minKey], [sessionId, session.leafId], true, true)
        .reverse()
        .limit(prefetch)
        .toArray();
      for (const e of newest) recent.set(e.id, e);
    }
    const reversed: Entry[] = [];
    const seen = new Set<EntryId>();
    let id: EntryId | null = session.leafId;
    while (id !== null && reversed.length < count && !enough?.(reversed)) {
      if (seen.has(id)) return { session, path: reversed.reverse(), whole: false };
      seen.add(id);
      const entry: Entry | undefined = recent.get(id) ?? (await db.entries.get(id));
      if (!entry || entry.sessionId !== sessionId) return { session, path: reversed.reverse(), whole: false };
      reversed.push(entry);
      id = entry.parentId;
    }
    return { session, path: reversed.reverse(), whole: id === null };
  });
}
