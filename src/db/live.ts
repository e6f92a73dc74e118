/**
 * Queriers for `useLiveQuery` (STYLE §9): `useLiveQuery(() => liveEntries(id), [id])`.
 * They only read, and each reads an indexed range (a key, or one session's `sessionId` range), so
 * Dexie re-runs a query only when a write overlaps what it read: a write in session A does not
 * re-run session B's entries, labels or checkpoints. Writes from workers and other tabs arrive too.
 * The exception is inherent: the session list reads the whole (light) sessions table. (Search is
 * not a live query: it runs in the search worker, db/search.)
 * This is the one db/ module ui/ may import.
 */
import Dexie from "dexie";
import { type CostTotal, NO_COST, withCosts } from "../core/cost/cost";
import type { Entry, Session } from "../core/session/entries";
import { type BlobId, compareIds, type EntryId, firstEntryIdAt, type SessionId } from "../core/session/ids";
import { buildTreeIndex, extendTreeIndex, type TreeIndex, treeIndexBuilder } from "../core/session/tree";
import { getBlob } from "./blobs";
import { getEntries, getEntriesInChunks } from "./entries";
import { createHold } from "./hold";
import { getLabels } from "./labels";
import type { ReplyCheckpoint } from "./rows";
import { getDb } from "./schema";
import { getSessionTail, type SessionTail, TAIL_ENTRIES, TAIL_PREFETCH, type TailEnough } from "./session-tail";
import { childSessions, getSession, listSessions } from "./sessions";
import { getAllSettings } from "./settings";

export const liveSessions = (): Promise<Session[]> => listSessions();

/** An attachment's bytes (one key of the blobs table), for a thumbnail. */
export const liveBlob = (id: BlobId): Promise<Blob | undefined> => getBlob(id);

export const liveSession = (id: SessionId): Promise<Session | undefined> => getSession(id);

/**
 * Sessions handed off from `sessionId` ("Handed off to <title>"). Reads the whole (light) sessions
 * table, like `liveSessions`. The other direction, "Continued from <title>", is
 * `liveSession(session.parentSessionId)`.
 */
export const liveChildSessions = (sessionId: SessionId): Promise<Session[]> => childSessions(sessionId);

/**
 * The first screen of a chat (session-tail.ts): the row and the last entries of its leaf's path, a
 * few keyed reads whatever the size of the tree. Re-runs when the row (its leaf) or one of those
 * entries changes; the whole tree comes from `liveSessionWithEntries`.
 */
export const liveSessionTail = (sessionId: SessionId, enough?: TailEnough): Promise<SessionTail> =>
  getSessionTail(sessionId, TAIL_ENTRIES, TAIL_PREFETCH, enough);

export const liveEntries = (sessionId: SessionId): Promise<Entry[]> => getEntries(sessionId);

/**
 * Entries become visible a little after their id is made (an append commits within milliseconds):
 * a re-run reads back this far (ms) before now. Replies in flight, whose id is made when they
 * start, are covered by their checkpoint rows instead.
 */
const LIVE_RECENT_MARGIN_MS = 30_000;

const treeReads = createHold();

/**
 * Holds (true) or lets go on (false) the open chat's whole-tree read between its chunks: the page
 * holds it while a message is sent and answered. Opening a big chat reads its tree for seconds
 * after the end of the chat shows, and a send made meanwhile shared the page's thread with it (a
 * reply's first token in a 20,000-entry chat came twice as late as in a small one).
 */
export const holdTreeReads = (held: boolean): void => treeReads.set(held);

/**
 * A chat's whole tree as the page holds it: its entries (in id order), their index and what their
 * replies cost. Both are built as the entries arrive and extended at each append (never rebuilt
 * in one step of the page's thread: ~25 ms and ~10 ms for a 10,000-entry tree).
 */
export type ChatTree = { entries: Entry[]; index: TreeIndex; cost: CostTotal };

/** A session with its whole tree (`session` undefined: no such session). */
export type SessionWithTree = { session: Session | undefined } & ChatTree;

/** The tree of no session (or of one not read). */
export const NO_TREE: ChatTree = { entries: [], index: buildTreeIndex([]), cost: NO_COST };

/** The open session's tree as last read, so a re-run reads only what is new (one session at a time). */
let known: {
  sessionId: SessionId;
  tree: ChatTree;
  inFlight: EntryId[];
  /** When the last read began (ms): a re-run reads back to a margin before it, however long ago. */
  readAt: number;
  /** The last answer, given again when nothing changed (a checkpoint of a reply re-runs the query). */
  last?: { json: string; result: SessionWithTree };
} | null = null;

/**
 * A session and its entries, read so that the session's leaf is always among the entries: the row
 * first, then the entries (append-only: entries read after the row hold every entry its leaf can
 * point to, even when another tab appends in between; read the other way round, the path built
 * from them is empty for a moment and the open chat blinks out). `session` is undefined when the
 * session does not exist.
 *
 * The first run reads the whole tree. A re-run (after any write: this tab's message, a reply, another
 * tab's) reads only the entries that can be new: the ids (UUIDv7, so creation times) from
 * `LIVE_RECENT_MARGIN_MS` ago, or from the oldest reply of the session still in flight (its checkpoint's
 * id is the id its entry will get), then the rows of those not known yet; with nothing new it returns the same array, so nothing
 * downstream is rebuilt. Before, every append re-read and re-cloned the whole tree on the page's
 * thread: the reply to an 11-entry path in a 20,000-entry chat could not show for seconds. A leaf
 * that is still not among the entries falls back to the full read. The full read comes in chunks
 * (getEntriesInChunks): one getAll of a 10,000-entry tree was a 13 MB clone in one main-thread task.
 */
export const liveSessionWithEntries = async (sessionId: SessionId): Promise<SessionWithTree> => {
  const readAt = Date.now();
  const session = await getSession(sessionId);
  if (!session) {
    if (known?.sessionId === sessionId) known = null;
    return { session, ...NO_TREE };
  }
  // Read before the entries: a reply finished since (its checkpoint gone) is then among them.
  const inFlight = await getDb().drafts.where("sessionId").equals(sessionId).primaryKeys();
  const start = known;
  if (start?.sessionId === sessionId) {
    // Back to a margin before the last read began (a tab frozen for minutes misses nothing), or to
    // the oldest reply in flight now or then (it may have been written since).
    const since = [firstEntryIdAt(start.readAt - LIVE_RECENT_MARGIN_MS), ...inFlight, ...start.inFlight].reduce(
      (a, b) => (b < a ? b : a),
    );
    // The ids first, then only the rows not known: a tool loop writes megabytes of results within
    // the margin, and reading them all again at every append was a long task per step (and garbage).
    const recentIds = await getDb().entries.where(":id").aboveOrEqual(since).primaryKeys();
    const unknownIds = recentIds.filter((id) => !knownSince(sessionId, since).has(id));
    const recent = unknownIds.length === 0 ? [] : await getDb().entries.bulkGet(unknownIds);
    // Another chat's read may have replaced `known` meanwhile (a switch): then read this one whole.
    const base = known;
    if (base?.sessionId === sessionId) {
      const knownRecent = knownSince(sessionId, since);
      const fresh = recent.filter(
        (e): e is Entry => e !== undefined && e.sessionId === sessionId && !knownRecent.has(e.id),
      );
      const tree = fresh.length === 0 ? base.tree : remember(sessionId, withFresh(base.tree, fresh), inFlight, readAt);
      if (known) {
        known.inFlight = inFlight;
        known.readAt = Math.max(known.readAt, readAt);
      }
      const leafId = session.leafId;
      if (leafId === null || tree.index.byId.has(leafId)) return answer(session, tree);
    }
  }
  const builder = treeIndexBuilder();
  let cost = NO_COST;
  const entries = await getEntriesInChunks(sessionId, {
    // Kept in the querier's context (Dexie.waitFor), so the chunks after a hold are still observed.
    between: () => Dexie.waitFor(treeReads.passed()),
    onChunk: (part) => {
      builder.add(part);
      cost = withCosts(cost, part);
    },
  });
  // In id order as read (getEntriesInChunks): no check of 10,000 ids here.
  return answer(session, remember(sessionId, { entries, index: builder.index(), cost }, inFlight, readAt));
};

/** The known entries of `sessionId` from `since` on (id order: only those can be among a re-run's reads). */
function knownSince(sessionId: SessionId, since: EntryId): Set<EntryId> {
  if (known?.sessionId !== sessionId) return new Set();
  const { entries } = known.tree;
  return new Set(entries.slice(firstAtOrAfter(entries, since)).map((e) => e.id));
}

/** `{ session, ...tree }`, or the previous answer itself when neither changed (no re-render). */
function answer(session: Session, tree: ChatTree): SessionWithTree {
  if (!known) return { session, ...tree };
  const json = JSON.stringify(session);
  const last = known.last;
  if (last && last.json === json && last.result.entries === tree.entries) return last.result;
  const result = { session, ...tree };
  known.last = { json, result };
  return result;
}

const byId = (a: Entry, b: Entry): number => compareIds(a.id, b.id);

/** `entries` in id order (sorted in place when they are not). */
function sortedById(entries: Entry[]): Entry[] {
  for (let i = 1; i < entries.length; i++) if (entries[i - 1]!.id > entries[i]!.id) return entries.sort(byId);
  return entries;
}

/**
 * `tree` with `fresh` entries added: the entries in id order, the index and the cost extended.
 * New entries are almost always newer than every known one (UUIDv7 ids): then only `fresh` is
 * sorted, and what a re-run costs is the entries it brings, not the size of the tree.
 */
function withFresh(tree: ChatTree, fresh: Entry[]): ChatTree {
  const { entries: known } = tree;
  sortedById(fresh);
  const last = known[known.length - 1];
  const merged = known.concat(fresh);
  return {
    entries: last === undefined || last.id < fresh[0]!.id ? merged : merged.sort(byId),
    index: extendTreeIndex(tree.index, fresh),
    cost: withCosts(tree.cost, fresh),
  };
}

/**
 * Where the first entry with an id at or after `id` is in `entries` (id order), by binary search:
 * a re-run looks at the known entries it could have read again, not at all of them.
 */
function firstAtOrAfter(entries: readonly Entry[], id: EntryId): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Keeps `tree` as the session's known tree; returns it. */
function remember(sessionId: SessionId, tree: ChatTree, inFlight: EntryId[], readAt: number): ChatTree {
  known = { sessionId, tree, inFlight, readAt };
  return tree;
}

export const liveSettings = (): Promise<Record<string, unknown>> => getAllSettings();

export const liveLabels = (sessionId: SessionId): Promise<Map<EntryId, string>> => getLabels(sessionId);

/** The session's replies in flight (usually zero or one). */
export const liveCheckpoints = (sessionId: SessionId): Promise<ReplyCheckpoint[]> =>
  getDb().drafts.where("sessionId").equals(sessionId).toArray();
