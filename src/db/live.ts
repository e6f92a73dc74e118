/**
 * Queriers for `useLiveQuery` (STYLE §9): `useLiveQuery(() => liveEntries(id), [id])`.
 * They only read, and each reads an indexed range (a key, or one session's `sessionId` range), so
 * Dexie re-runs a query only when a write overlaps what it read: a write in session A does not
 * re-run session B's entries, labels or drafts. Writes from workers and other tabs arrive too.
 * The exceptions are inherent: the session list reads the whole (light) sessions table, and search
 * scans all entries (see searchSessions), so any new entry re-runs an active search.
 * This is the one db/ module ui/ may import.
 */
import type { Entry, Session } from "../core/session/entries";
import type { EntryId, SessionId } from "../core/session/ids";
import { getEntries } from "./entries";
import { getLabels } from "./labels";
import type { Draft } from "./rows";
import { getDb } from "./schema";
import { childSessions, getSession, listSessions, searchSessions } from "./sessions";
import { getAllSettings } from "./settings";

export type { Draft } from "./rows";

export const liveSessions = (): Promise<Session[]> => listSessions();

export const liveSession = (id: SessionId): Promise<Session | undefined> => getSession(id);

/**
 * Sessions handed off from `sessionId` ("Handed off to <title>"). Reads the whole (light) sessions
 * table, like `liveSessions`. The other direction, "Continued from <title>", is
 * `liveSession(session.parentSessionId)`.
 */
export const liveChildSessions = (sessionId: SessionId): Promise<Session[]> => childSessions(sessionId);

export const liveEntries = (sessionId: SessionId): Promise<Entry[]> => getEntries(sessionId);

/**
 * A session and its entries from one read transaction. Two separate live queries can answer out of
 * step when another tab appends (the session's new leaf arrives before the entry it points to), and
 * the path built from them is empty for a moment: the open chat blinks out. Read together, the leaf
 * is always among the entries. `session` is undefined when the session does not exist.
 */
export const liveSessionWithEntries = (
  sessionId: SessionId,
): Promise<{ session: Session | undefined; entries: Entry[] }> => {
  const db = getDb();
  return db.transaction("r", db.sessions, db.entries, async () => ({
    session: await getSession(sessionId),
    entries: await getEntries(sessionId),
  }));
};

export const liveSettings = (): Promise<Record<string, unknown>> => getAllSettings();

export const liveLabels = (sessionId: SessionId): Promise<Map<EntryId, string>> => getLabels(sessionId);

/** The session's replies in flight (usually zero or one). */
export const liveDrafts = (sessionId: SessionId): Promise<Draft[]> =>
  getDb().drafts.where("sessionId").equals(sessionId).toArray();

export const liveSearch = (query: string): Promise<SessionId[]> => searchSessions(query);
