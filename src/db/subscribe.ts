/**
 * Live queries for code outside React (state/ stores, boot), which may not import Dexie:
 * the same re-run-on-overlapping-write behaviour as `useLiveQuery`, as a plain subscription.
 */
import { liveQuery } from "dexie";

/**
 * Calls `next` with `querier`'s result now and after every write (this tab, workers, other tabs)
 * that overlaps what it read. `querier` must only read through db/ (e.g. a live.ts querier or a
 * get* verb) and await nothing but Dexie. Returns the unsubscribe function.
 * @example
 * const stop = subscribeLive(getAllSettings, (rows) => store.setState({ rows }), report);
 */
export function subscribeLive<T>(
  querier: () => Promise<T>,
  next: (value: T) => void,
  error: (e: unknown) => void,
): () => void {
  const subscription = liveQuery(querier).subscribe({ next, error });
  return () => subscription.unsubscribe();
}
