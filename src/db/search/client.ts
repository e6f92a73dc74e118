/**
 * The page's side of chat search: one search worker (search.worker.ts), started on first use and
 * kept for the page's life (its index stays in memory; starting it at boot lets it catch up with
 * the database before the first query). Where there is no `Worker` (vitest) the same service runs
 * in-process; production builds drop that path. A worker that fails is started afresh on the next
 * query; a query in flight then answers "no results" instead of hanging.
 */
import * as Comlink from "comlink";
import type { SearchApi } from "./search-api";
import type { ChatSearchAnswer } from "./search-types";

export type { ChatSearchAnswer, ChatSearchResult, SearchResultKind, SnippetPart } from "./search-types";

type Started = { api: Promise<SearchApi>; died: Promise<null> };

let started: Started | null = null;
const MEASURE = "grove:search";
let seq = 0;

function start(): Started {
  if (typeof Worker === "undefined") return startInProcess();
  const worker = new Worker(new URL("./search.worker.ts", import.meta.url), { type: "module", name: "grove-search" });
  const api = Comlink.wrap<SearchApi>(worker);
  const died = new Promise<null>((resolve) => {
    const die = () => {
      worker.terminate();
      if (started?.died === died) started = null;
      resolve(null);
    };
    worker.addEventListener("error", die);
    worker.addEventListener("messageerror", die);
  });
  // Promise.resolve does not unwrap the remote: its `then` is not a function (comlink sees to it).
  return { api: Promise.resolve(api as unknown as SearchApi), died };
}

function startInProcess(): Started {
  if (import.meta.env.PROD) throw new Error("Web Workers are not available in this browser.");
  const api = import("./search-service").then(({ createSearchService }): SearchApi => {
    const service = createSearchService();
    return { search: service.search, refresh: service.refresh, hold: service.hold };
  });
  return { api, died: new Promise<null>(() => {}) };
}

function current(): Started {
  started ??= start();
  return started;
}

/** Starts the search worker (it loads or builds the index in the background). */
export function startChatSearch(): void {
  current();
}

/**
 * Holds or releases the worker's indexing (a send is in progress somewhere). Does not start the
 * worker: one that is not running indexes nothing.
 */
export function holdIndexing(held: boolean): void {
  void started?.api.then((api) => api.hold(held)).catch(() => {});
}

/**
 * The answer for `query`, or null when a later query made this one moot (or the worker failed):
 * callers show the latest answer only.
 */
export async function searchChats(query: string): Promise<ChatSearchAnswer | null> {
  const s = current();
  const mine = ++seq;
  const t0 = performance.now();
  const answer = await Promise.race([s.api.then((api) => api.search(query, mine)), s.died]).catch(() => null);
  // For the search bench: when a query was sent and how long the worker took to answer it.
  performance.measure(MEASURE, { start: t0, detail: { query, answered: answer !== null, took: answer?.took } });
  return mine === seq ? answer : null;
}

/** Resolves when the index has caught up with the database. */
export async function refreshChatSearch(): Promise<void> {
  const s = current();
  await Promise.race([s.api.then((api) => api.refresh()), s.died]);
}
