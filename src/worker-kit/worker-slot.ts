/**
 * One worker of a kind kept for the page (compaction, search, sync): started on first use, and
 * after it died, started afresh on the next use (spawn-worker.ts is the death policy).
 */
import { type SpawnedWorker, spawnWorker, type WorkerSpec } from "./spawn-worker";

export type WorkerSlot<Api> = {
  /** The running worker; starts one when there is none (never started, died, or disposed). */
  get(): SpawnedWorker<Api>;
  /** The running worker, or null: for calls that must not start one. */
  running(): SpawnedWorker<Api> | null;
  /** Ends the running worker on purpose (tests, hot reload); the next `get()` starts a new one. */
  dispose(): void;
};

export function workerSlot<Api extends object>(spec: WorkerSpec<Api>): WorkerSlot<Api> {
  let current: SpawnedWorker<Api> | null = null;
  const running = () => (current?.isRunning() ? current : null);
  return {
    get() {
      const alive = running();
      if (alive) return alive;
      current = spawnWorker(spec);
      return current;
    },
    running,
    dispose() {
      current?.dispose();
      current = null;
    },
  };
}
