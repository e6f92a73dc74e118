/**
 * The chat search, wherever it runs (the search worker in the app, in-process in tests): loads the
 * saved index segment by segment (searching what is loaded meanwhile; a segment missing or
 * unreadable has its chats indexed again), keeps it in step with the
 * database (a live query on the sessions table re-runs on every append, import and delete, from
 * this page, its workers or another tab; see sync-index.ts), saves it a little after it last
 * changed, and answers queries with the best hits, their chat's title, date and a snippet.
 */
import { liveQuery } from "dexie";
import { ChatIndex, type IndexHit, type SegmentChanges } from "../../core/search/chat-index";
import { buildSnippet } from "../../core/search/snippet";
import type { Entry } from "../../core/session/entries";
import { entryText } from "../../core/session/entry-text";
import type { EntryId } from "../../core/session/ids";
import { createHold } from "../hold";
import { getDb } from "../schema";
import { loadSavedSegment, savedSegments, saveSegments } from "./search-store";
import type { ChatSearchAnswer, ChatSearchResult } from "./search-types";
import { type SyncOptions, type SyncProgress, syncIndex } from "./sync-index";

/** Results given per query: the best ones (the total is reported beside them). */
export const RESULT_LIMIT = 50;
/**
 * Quiet time (ms) after the last change, and after the last query, before the index is saved: a
 * reply is a burst of writes, and saving holds the worker (queries wait meanwhile).
 */
export const SAVE_DELAY_MS = 4_000;

/** Entries whose text the service keeps for results (about 1 KB each): ten queries' worth. */
const SHOWN_KEPT = 500;

/** What a result shows of an entry. */
type Shown = { text: string; at: number; kind: Entry["type"]; role?: "user" | "assistant" | "tool" };

export type SearchServiceOptions = SyncOptions & {
  saveDelayMs?: number;
  live?: boolean;
  /** Documents per index segment (tests use small ones). */
  segmentDocs?: number;
  /** Awaited after each saved segment loaded (default: yield to the event loop). */
  loadPause?: () => Promise<void>;
  /** Longest a hold lasts (default: hold.ts's HOLD_MAX_MS). */
  holdMaxMs?: number;
};

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export type SearchService = {
  /** Resolves once the saved index is loaded (or a rebuild has begun); syncing goes on after. */
  ready: Promise<void>;
  /**
   * The answer for `query`, or null when a newer query (higher `seq`) arrived meanwhile: typing
   * fast asks many, and only the last one's answer is wanted.
   */
  search(query: string, seq?: number): Promise<ChatSearchAnswer | null>;
  /** Syncs with the database now; resolves when the index has caught up (tests, the bench). */
  refresh(): Promise<void>;
  /** Saves now if anything is unsaved (tests). */
  flush(): Promise<void>;
  /**
   * While held, indexing waits at its next pause (queries are still answered): the page holds it
   * while a message is sent and answered, so a chat being indexed in the background does not
   * compete with the send for the database.
   */
  hold(held: boolean): void;
  stop(): void;
};

export function createSearchService(options: SearchServiceOptions = {}): SearchService {
  const saveDelay = options.saveDelayMs ?? SAVE_DELAY_MS;
  const index = ChatIndex.empty(options.segmentDocs);
  let progress: SyncProgress | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let latestSeq = 0;
  let stopped = false;
  let prepared = false;
  const indexing = createHold(options.holdMaxMs);
  const hold = indexing.set;
  /** Indexing's pause: the event loop's turn, then the end of a hold. */
  const indexPause = async () => {
    await (options.pause ?? yieldToEvents)();
    await indexing.passed();
  };

  // The saved segments load newest first, one at a time with a pause between them: a query asked
  // meanwhile is answered from what is loaded (saying how far loading is) instead of waiting.
  let loading: { done: number; total: number } | null = { done: 0, total: 0 };
  /** Queries being answered, and what waits for there to be none (the loading below). */
  let asking = 0;
  const waiting: Array<() => void> = [];
  let firstLoaded: () => void = () => {};
  /** Resolves once the first (newest) saved segment is in, or there is none to load. */
  const first = new Promise<void>((resolve) => {
    firstLoaded = resolve;
  });
  const ready = (async () => {
    const ids = await savedSegments().catch(() => []);
    loading = { done: 0, total: ids.length };
    const queriesFirst = async () => {
      if (asking > 0) await new Promise<void>((resolve) => waiting.push(resolve));
    };
    for (const id of ids) {
      if (stopped) return;
      const data = await loadSavedSegment(id).catch(() => undefined);
      // A query that arrived during the read goes first: parsing a segment holds the worker for
      // tens of milliseconds (more on a busy machine), and the query would wait behind it.
      await queriesFirst();
      try {
        index.loadSegment(id, data);
      } catch (e) {
        // Corrupt, or written by another version: its chats are indexed again by the first sync.
        console.warn("A saved search index segment could not be read; its chats are indexed again.", e);
        index.forgetSegment(id);
      }
      loading = { done: loading.done + 1, total: ids.length };
      firstLoaded();
      await (options.loadPause ?? yieldToEvents)();
      // A query asked meanwhile goes first (its reads too): loading waits until it is answered.
      await queriesFirst();
    }
  })().finally(() => {
    loading = null;
    firstLoaded();
  });

  // Serialized a slice at a time (a few ms each: a query asked meanwhile waits for one slice, not
  // a segment's 50-150 ms), then written in one transaction, a segment per task: a reload finds
  // the whole save or none of it.
  let saving: Promise<void> | null = null;
  const save = (): Promise<void> =>
    (saving ??= (async () => {
      const steps = index.serializeChanges();
      let step = steps.next();
      while (!step.done) {
        await yieldToEvents();
        if (stopped) return;
        step = steps.next();
      }
      const changes: SegmentChanges = step.value;
      // Quota or a closing database: tried again after the next change.
      await saveSegments(changes).catch(() => index.keepChanges(changes));
      // A segment that changed while it was written was left out: saved with the next quiet.
      if (index.changed && !stopped) scheduleSave();
    })().finally(() => {
      saving = null;
    }));

  // Serializing a whole large index held the worker for a second or more: never while someone types.
  let lastQueryAt = 0;
  const scheduleSave = () => {
    clearTimeout(saveTimer);
    const whenQuiet = () => {
      const wait = saveDelay - (Date.now() - lastQueryAt);
      if (wait > 0) saveTimer = setTimeout(whenQuiet, wait);
      else void save();
    };
    saveTimer = setTimeout(whenQuiet, saveDelay);
  };

  const sync = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      await ready;
      do {
        again = false;
        await indexing.passed();
        const changed = await syncIndex(index, {
          ...options,
          pause: indexPause,
          onProgress: (p) => {
            progress = p.chatsDone < p.chatsTotal ? p : null;
            options.onProgress?.(p);
          },
        }).catch((e) => {
          // Left for the next change to retry (what was indexed stays; the chat is marked incomplete).
          console.warn("The search index could not be brought up to date.", e);
          return false;
        });
        progress = null;
        if (changed) scheduleSave();
      } while (again && !stopped);
      // Once per worker, when the index first has a common word: off the typing path.
      if (!prepared && !stopped) prepared = index.prepare();
    })().finally(() => {
      running = null;
    });
    return running;
  };

  // The first sync starts now, not at the live query's first run: that can come after the saved
  // index has loaded and a query was answered, and that answer ("no results", nothing indexing)
  // would be final — the page asks again only while something is still loading or indexing.
  void sync();
  const subscription =
    options.live === false
      ? null
      : liveQuery(() => getDb().sessions.toArray()).subscribe({
          next: () => void sync(),
          error: () => {},
        });

  const search = async (query: string, seq = ++latestSeq): Promise<ChatSearchAnswer | null> => {
    latestSeq = Math.max(latestSeq, seq);
    const arrived = performance.now();
    // Nothing loaded yet after a start: the answer could only be "nothing found yet", and the page
    // would ask again 300 ms later; the newest segment is a read and a parse away.
    if (loading && index.segmentCount === 0) await first;
    asking++;
    try {
      // Let queued messages in first: if a newer query is among them, this one is not wanted.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (seq < latestSeq) return null;
      lastQueryAt = Date.now();
      // While the saved index loads, that is what to say (the sync waits for it); else a sync
      // that has not counted its work yet is still catching up (0 of 0: "Indexing…").
      const loadingNow = loading && { ...loading };
      const indexing = loadingNow
        ? null
        : progress
          ? { ...progress }
          : running
            ? { chatsDone: 0, chatsTotal: 0 }
            : null;
      const started = performance.now();
      const { hits, total } = index.query(query, RESULT_LIMIT);
      const ranked = performance.now();
      const results = await describe(hits);
      const took = { waiting: started - arrived, ranking: ranked - started, describing: performance.now() - ranked };
      return { query, results, total, indexing, loading: loadingNow, took };
    } finally {
      asking--;
      if (asking === 0) for (const wake of waiting.splice(0)) wake();
    }
  };

  // What results show of an entry, kept for the next queries: typing a word asks for nearly the
  // same best hits at every letter, and reading 50 entries was as slow as ranking 100,000 (one
  // IndexedDB get each). Entries never change, and a deleted chat's are caught by the sessions read.
  const shown = new Map<EntryId, Shown>();
  const shownOf = async (ids: readonly EntryId[]): Promise<Map<EntryId, Shown>> => {
    const out = new Map<EntryId, Shown>();
    const missing: EntryId[] = [];
    for (const id of ids) {
      const kept = shown.get(id);
      if (!kept) {
        missing.push(id);
        continue;
      }
      out.set(id, kept);
      shown.delete(id); // re-inserted: Map order is the order of last use
      shown.set(id, kept);
    }
    if (missing.length === 0) return out;
    for (const e of await getDb().entries.bulkGet(missing)) {
      if (!e) continue;
      const s: Shown = {
        text: entryText(e),
        at: e.createdAt,
        kind: e.type,
        ...(e.type === "message" ? { role: e.role } : {}),
      };
      out.set(e.id, s);
      shown.set(e.id, s);
    }
    for (const id of shown.keys()) {
      if (shown.size <= SHOWN_KEPT) break;
      shown.delete(id);
    }
    return out;
  };

  const describe = async (hits: readonly IndexHit[]): Promise<ChatSearchResult[]> => {
    const ids = hits.flatMap((h) => (h.entryId ? [h.entryId] : []));
    // Both reads at once: two round trips to IndexedDB cost twice one.
    const [entries, sessionRows] = await Promise.all([
      shownOf(ids),
      getDb().sessions.bulkGet([...new Set(hits.map((h) => h.sessionId))]),
    ]);
    const sessions = new Map(sessionRows.flatMap((s) => (s ? [[s.id, s]] : [])));
    const out: ChatSearchResult[] = [];
    for (const hit of hits) {
      const session = sessions.get(hit.sessionId);
      if (!session) continue; // deleted since it was indexed
      if (hit.entryId === null) {
        out.push({
          sessionId: session.id,
          entryId: null,
          title: session.title,
          at: session.updatedAt,
          kind: "title",
          snippet: buildSnippet(session.title, hit.terms),
        });
        continue;
      }
      const entry = entries.get(hit.entryId);
      if (!entry) continue;
      out.push({
        sessionId: session.id,
        entryId: hit.entryId,
        title: session.title,
        at: entry.at,
        kind: entry.kind,
        ...(entry.role ? { role: entry.role } : {}),
        snippet: buildSnippet(entry.text, hit.terms),
      });
    }
    return out;
  };

  return {
    ready,
    search,
    refresh: async () => {
      await sync();
      while (running) await running;
    },
    flush: async () => {
      clearTimeout(saveTimer);
      await save();
    },
    hold,
    stop: () => {
      stopped = true;
      hold(false);
      clearTimeout(saveTimer);
      subscription?.unsubscribe();
    },
  };
}
