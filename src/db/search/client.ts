/**
 * The page's side of chat search: one search worker (search.worker.ts), started on first use and
 * kept for the page's life (its index stays in memory; starting it at boot lets it catch up with
 * the database before the first query). Starting, the in-process fallback (vitest; production
 * builds drop it) and dying are the worker kit's (src/worker-kit): a query in flight when the
 * worker dies is answered with the kit's message (`failed`), and the next query starts a new one.
 */
import { errorText } from "../../core/session/message-error";
import { workerSlot } from "../../worker-kit/worker-slot";
import type { SearchApi } from "./search-api";
import type { ChatSearchAnswer } from "./search-types";

const search = workerSlot<SearchApi>({
  kind: "search",
  start: (name) => new Worker(new URL("./search.worker.ts", import.meta.url), { type: "module", name }),
  inProcess: import.meta.env.PROD
    ? undefined
    : () =>
        import("./search-service").then(({ createSearchService }): SearchApi => {
          const service = createSearchService();
          return { search: service.search, refresh: service.refresh, hold: service.hold };
        }),
});

const MEASURE = "grove:search";
let seq = 0;

/** Starts the search worker (it loads or builds the index in the background). */
export function startChatSearch(): void {
  search.get();
}

/**
 * Holds or releases the worker's indexing (a send is in progress somewhere). Does not start the
 * worker: one that is not running indexes nothing.
 */
export function holdIndexing(held: boolean): void {
  void search
    .running()
    ?.api.hold(held)
    .catch(() => {});
}

/**
 * The answer for `query`, or null when a later query made this one moot: callers show the latest
 * answer only. A search that could not run (its worker died under it) answers with no results
 * and `failed`.
 */
export async function searchChats(query: string): Promise<ChatSearchAnswer | null> {
  const mine = ++seq;
  const t0 = performance.now();
  let answer: ChatSearchAnswer | null;
  try {
    answer = await search.get().api.search(query, mine);
  } catch (e) {
    answer = { query, results: [], total: 0, indexing: null, loading: null, failed: errorText(e) };
  }
  // For the search bench: when a query was sent and how long the worker took to answer it.
  performance.measure(MEASURE, {
    start: t0,
    detail: { query, answered: answer !== null && !answer.failed, took: answer?.took },
  });
  return mine === seq ? answer : null;
}
