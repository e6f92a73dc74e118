/** The sync connection as the Settings › Sync region shows it (the worker owns the real state). */

import type { SyncConfig } from "../../db/sync/sync-meta";
import type { SyncStatus } from "../../db/sync/sync-status";
import { defineStore } from "../app/store-registry";

export type SyncView = {
  status: SyncStatus;
  /** The server and user this device is connected to (undefined: not connected). */
  connected: (Pick<SyncConfig, "url" | "username"> & { hasPassword: boolean }) | undefined;
  /** The last Connect's failure (wrong passphrase, server unreachable), shown until the next try. */
  problem: string | undefined;
  busy: boolean;
};

export const useSyncStore = defineStore<SyncView>(() => ({
  status: { kind: "off" },
  connected: undefined,
  problem: undefined,
  busy: false,
}));
