/** The sync worker's API over one engine (also run in-process where there is no Worker, in tests). */
import { SyncEngine } from "./engine";
import type { SyncApi } from "./sync-api";
import type { SyncEvents } from "./sync-status";

export function createSyncApi(): SyncApi {
  let engine: SyncEngine | undefined;
  const need = () => {
    if (!engine) throw new Error("Sync was not initialized.");
    return engine;
  };
  return {
    async init(events: SyncEvents) {
      engine = new SyncEngine(events);
      return engine.resume();
    },
    connect: (config, passphrase) => need().connect(config, passphrase),
    disconnect: () => need().disconnect(),
    syncNow: () => need().syncNow(),
    cancel: () => need().cancel(),
  };
}
