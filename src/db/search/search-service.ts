/**
 * The chat search, wherever it runs (the search worker in the app, in-process in tests): loads the
 * saved index segment by segment (index-loader.ts; searching what is loaded meanwhile), keeps it
 * in step with the database (index-catch-up.ts: a live query on the sessions table re-runs on
 * every append, import and delete, from this page, its workers or another tab), saves it a little
 * after it last changed (index-saver.ts), and answers queries with the best hits, their chat's
 * title, date and a snippet (result-describer.ts).
 */
import { liveQuery } from "dexie";
import { ChatIndex } from "../../core/search/chat-index";
import { getDb } from "../schema";
import type { CatchUpOptions } from "./catch-up-pass";
import { createCatchUp } from "./index-catch-up";
import { loadSavedIndex } from "./index-loader";
import { createIndexSaver } from "./index-saver";
import { createDescriber } from "./result-describer";
import type { ChatSearchAnswer } from "./search-types";

/** Results given per query: the best ones (the total is reported beside them). */
const RESULT_LIMIT = 50;
/**
 * Quiet time (ms) after the last change, and after the last query, before the index is saved: a
 * reply is a burst of writes, and saving holds the worker (queries wait meanwhile).
 */
const SAVE_DELAY_MS = 4_000;

export type SearchServiceOptions = CatchUpOptions & {
  saveDelayMs?: number;
  live?: boolean;
  /** Documents per index segment (tests use small ones). */
  segmentDocs?: number;
  /** Awaited after each saved segment loaded (default: yield to the event loop). */
  loadPause?: () => Promise<void>;
  /** Longest a hold lasts (default: hold.ts's HOLD_MAX_MS). */
  holdMaxMs?: number;
};

export type SearchService = {
  /** Resolves once the saved index is loaded (or a rebuild has begun); catching up goes on after. */
  ready: Promise<void>;
  /**
   * The answer for `query`, or null when a newer query (higher `seq`) arrived meanwhile: typing
   * fast asks many, and only the last one's answer is wanted.
   */
  search(query: string, seq?: number): Promise<ChatSearchAnswer | null>;
  /** Catches up with the database now; resolves when the index has caught up (tests, the bench). */
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
  const index = ChatIndex.empty(options.segmentDocs);
  let stopped = false;
  const isStopped = () => stopped;
  let latestSeq = 0;
  const loader = loadSavedIndex(index, { stopped: isStopped, loadPause: options.loadPause });
  const saver = createIndexSaver(index, { delayMs: options.saveDelayMs ?? SAVE_DELAY_MS, stopped: isStopped });
  const catchUp = createCatchUp(index, {
    after: loader.done,
    stopped: isStopped,
    onChanged: saver.changed,
    holdMaxMs: options.holdMaxMs,
    pause: options.pause,
    onProgress: options.onProgress,
  });
  const describe = createDescriber();

  // The first catch-up starts now, not at the live query's first run: that can come after the
  // saved index has loaded and a query was answered, and that answer ("no results", nothing
  // indexing) would be final — the page asks again only while something is still loading or indexing.
  void catchUp.run();
  const subscription =
    options.live === false
      ? null
      : liveQuery(() => getDb().sessions.toArray()).subscribe({
          next: () => void catchUp.run(),
          error: () => {},
        });

  const search = async (query: string, seq = ++latestSeq): Promise<ChatSearchAnswer | null> => {
    latestSeq = Math.max(latestSeq, seq);
    const arrived = performance.now();
    // Nothing loaded yet after a start: the answer could only be "nothing found yet", and the page
    // would ask again 300 ms later; the newest segment is a read and a parse away.
    if (loader.progress() && index.segmentCount === 0) await loader.first;
    const answered = loader.answering();
    try {
      // Let queued messages in first: if a newer query is among them, this one is not wanted.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (seq < latestSeq) return null;
      saver.queried();
      // While the saved index loads, that is what to say (catching up waits for it); else a pass
      // that has not counted its work yet is still catching up (0 of 0: "Indexing…").
      const loading = loader.progress();
      const indexing = loading ? null : catchUp.progress();
      const started = performance.now();
      const { hits, total } = index.query(query, RESULT_LIMIT);
      const ranked = performance.now();
      const results = await describe(hits);
      const took = { waiting: started - arrived, ranking: ranked - started, describing: performance.now() - ranked };
      return { query, results, total, indexing, loading, took };
    } finally {
      answered();
    }
  };

  return {
    ready: loader.done,
    search,
    refresh: catchUp.caughtUp,
    flush: saver.flush,
    hold: catchUp.hold,
    stop: () => {
      stopped = true;
      catchUp.hold(false);
      saver.cancel();
      subscription?.unsubscribe();
    },
  };
}
