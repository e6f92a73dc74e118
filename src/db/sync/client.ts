/**
 * The page's side of sync: one sync worker per browser profile (a Web Lock keeps a second tab from
 * starting another; it takes over when the first closes), started only once there is a connection
 * or the user connects. Where there is no Worker (vitest), the engine runs in-process.
 */
import * as Comlink from "comlink";
import type { ConnectResult, SyncEvents } from "./engine";
import type { SyncApi } from "./sync-api";
import { getConnection, type SyncConfig } from "./sync-meta";

export type { ConnectResult, SyncEvents, SyncPhase, SyncStatus } from "./engine";
export type { SyncConfig } from "./sync-meta";

const LOCK = "grove-sync-engine";
let api: Promise<SyncApi> | undefined;

async function startApi(events: SyncEvents): Promise<SyncApi> {
  let remote: SyncApi;
  if (typeof Worker === "undefined") {
    if (import.meta.env.PROD) throw new Error("Web Workers are not available in this browser.");
    const { createSyncApi } = await import("./sync-api-impl");
    remote = createSyncApi();
    await remote.init(events);
    return remote;
  }
  const worker = new Worker(new URL("./sync.worker.ts", import.meta.url), { type: "module", name: "grove-sync" });
  const wrapped = Comlink.wrap<SyncApi>(worker) as unknown as SyncApi;
  // A worker that fails to load or crashes answers nothing: calls fail with its error instead of hanging.
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener("error", (e) => {
      const message = `The sync worker stopped: ${e.message || "it failed"}`;
      events.status({ kind: "error", message });
      reject(new Error(message));
    });
  });
  failed.catch(() => {});
  const guard = <R>(call: Promise<R>): Promise<R> => Promise.race([call, failed]);
  remote = {
    init: (ev) => guard(wrapped.init(ev)),
    connect: (config, passphrase) => guard(wrapped.connect(config, passphrase)),
    disconnect: () => guard(wrapped.disconnect()),
    syncNow: () => guard(wrapped.syncNow()),
    cancel: () => guard(wrapped.cancel()),
  };
  await remote.init(Comlink.proxy(events));
  return remote;
}

/** Waits for this tab to own sync (another tab may), then starts the worker. */
function ensure(events: SyncEvents): Promise<SyncApi> {
  api ??= new Promise<SyncApi>((resolve, reject) => {
    const run = () => startApi(events).then(resolve, reject);
    if (typeof navigator === "undefined" || !navigator.locks) {
      void run();
      return;
    }
    // Held for the page's life: released when the tab closes.
    void navigator.locks.request(LOCK, () => {
      void run();
      return new Promise<never>(() => {});
    });
  });
  return api;
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
