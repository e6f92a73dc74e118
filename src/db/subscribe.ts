/**
 * Live reads for code outside React (state/): Dexie's liveQuery re-runs the querier when a write
 * (from this tab, a worker or another tab) touches what it read.
 */
import { liveQuery } from "dexie";

export function subscribeLive<T>(
  querier: () => Promise<T>,
  onValue: (value: T) => void,
  onError: (error: unknown) => void,
): () => void {
  const subscription = liveQuery(querier).subscribe({ next: onValue, error: onError });
  return () => subscription.unsubscribe();
}
