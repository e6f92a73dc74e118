/**
 * Loading the saved chat index after a start (search-store.ts): segments newest first, one at a
 * time with a pause between them, so a query asked meanwhile is answered from what is loaded
 * (saying how far loading is) instead of waiting. A segment missing or unreadable is forgotten:
 * its chats are indexed again by the first catch-up (index-catch-up.ts).
 */
import type { ChatIndex } from "../../core/search/chat-index";
import { loadSavedSegment, savedSegments } from "./search-store";

type LoadProgress = { done: number; total: number };

export type IndexLoader = {
  /** Resolves once every saved segment is in (or given up on), or loading was stopped. Never rejects. */
  done: Promise<void>;
  /** Resolves once the first (newest) saved segment is in, or there is none to load. */
  first: Promise<void>;
  /** Segments loaded of how many (total 0 while still counting them); null once loading is over. */
  progress(): LoadProgress | null;
  /** A query is being answered until the returned function is called: loading waits meanwhile. */
  answering(): () => void;
};

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function loadSavedIndex(
  index: ChatIndex,
  options: {
    stopped: () => boolean;
    /** Awaited after each saved segment loaded (default: yield to the event loop). */
    loadPause?: () => Promise<void>;
  },
): IndexLoader {
  let loading: LoadProgress | null = { done: 0, total: 0 };
  /** Queries being answered, and what waits for there to be none (the loading below). */
  let asking = 0;
  const waiting: Array<() => void> = [];
  const queriesFirst = async () => {
    if (asking > 0) await new Promise<void>((resolve) => waiting.push(resolve));
  };
  let firstLoaded: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    firstLoaded = resolve;
  });

  const done = (async () => {
    const ids = await savedSegments().catch(() => []);
    loading = { done: 0, total: ids.length };
    for (const id of ids) {
      if (options.stopped()) return;
      const data = await loadSavedSegment(id).catch(() => undefined);
      // A query that arrived during the read goes first: parsing a segment holds the worker for
      // tens of milliseconds (more on a busy machine), and the query would wait behind it.
      await queriesFirst();
      try {
        index.loadSegment(id, data);
      } catch (e) {
        // Corrupt, or written by another version: its chats are indexed again by the first catch-up.
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

  return {
    done,
    first,
    progress: () => loading && { ...loading },
    answering: () => {
      asking++;
      return () => {
        asking--;
        if (asking === 0) for (const wake of waiting.splice(0)) wake();
      };
    },
  };
}
