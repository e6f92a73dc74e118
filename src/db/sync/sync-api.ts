/** What the sync worker exposes (over comlink), and what the page's client calls. */
import type { ConnectResult } from "./engine";
import type { SyncConfig } from "./sync-meta";
import type { SyncEvents } from "./sync-status";

export type SyncApi = {
  /** Registers the page's listeners and continues a stored connection; false when there is none. */
  init(events: SyncEvents): Promise<boolean>;
  connect(config: SyncConfig, passphrase: string): Promise<ConnectResult>;
  disconnect(): Promise<void>;
  syncNow(): Promise<void>;
  cancel(): Promise<void>;
};
