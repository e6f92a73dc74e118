/**
 * The page's side of sync: one sync worker per browser profile (a Web Lock keeps a second tab from
 * starting another; it takes over when the first closes), started only once there is a connection
 * or the user connects. Starting, the in-process fallback (vitest; production builds drop it) and
 * dying are the worker kit's (src/worker-kit): if the worker dies, a call in flight rejects with
 * the kit's `WorkerDied`, the status says so (a run in progress has no call in flight), and the
 * next action (Sync now, Connect, a reload) starts a new worker, which continues from where the
 * last one's checkpoints left off.
 */
import * as Comlink from "comlink";
import type { SpawnedWorker, WorkerCalls } from "../../worker-kit/spawn-worker";
import { workerSlot } from "../../worker-kit/worker-slot";
import type { ConnectResult } from "./engine";
import type { SyncApi } from "./sync-api";
import { getConnection, type SyncConfig } from "./sync-meta";
import type { SyncEvents } from "./sync-status";

const LOCK = "grove-sync-engine";

const sync = workerSlot<SyncApi>({
  kind: "sync",
  start: (name) => new Worker(new URL("./sync.worker.ts", import.meta.url), { type: "module", name }),
  inProcess: import.meta.env.PROD ? undefined : () => import("./sync-api-impl").then((m) => m.createSyncApi()),
});

let owned: Promise<void> | undefined;

/** Resolves once this tab owns sync (another tab may): the lock is held for the page's life. */
function ownSync(): Promise<void> {
  owned ??= new Promise<void>((resolve) => {
    if (typeof navigator === "undefined" || !navigator.locks) {
      resolve();
      return;
    }
    void navigator.locks.request(LOCK, () => {
      resolve();
      return new Promise<never>(() => {});
    });
  });
  return owned;
}

/** The running worker, and its API once `init` has given it the page's listeners. */
let started: { worker: SpawnedWorker<SyncApi>; ready: Promise<WorkerCalls<SyncApi>> } | undefined;

/** Waits for this tab to own sync, then the running worker (a new one after a death), initialized. */
async function ensure(events: SyncEvents): Promise<WorkerCalls<SyncApi>> {
  await ownSync();
  if (started?.worker.isRunning()) return started.ready;
  const worker = sync.get();
  const ready = worker.api.init(Comlink.proxy(events)).then(() => worker.api);
  started = { worker, ready };
  void worker.died.then((death) => events.status({ kind: "error", message: death.message }));
  return ready;
}

/** Continues a stored connection at startup; does nothing (starts no worker) when there is none. */
export async function resumeSync(events: SyncEvents): Promise<boolean> {
  if (!(await getConnection())) return false;
  await ensure(events);
  return true;
}

/** What this device is connected to (the password stays in the worker's keeping too). */
export async function storedSyncConfig(): Promise<SyncConfig | undefined> {
  return (await getConnection())?.config;
}

export async function connectSync(events: SyncEvents, config: SyncConfig, passphrase: string): Promise<ConnectResult> {
  return (await ensure(events)).connect(config, passphrase);
}

export async function disconnectSync(events: SyncEvents): Promise<void> {
  await (await ensure(events)).disconnect();
}

export async function syncNow(events: SyncEvents): Promise<void> {
  await (await ensure(events)).syncNow();
}

export async function cancelSync(events: SyncEvents): Promise<void> {
  await (await ensure(events)).cancel();
}
