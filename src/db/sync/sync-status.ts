/** What the sync worker tells the page while it works (over comlink): its status and leaf conflicts. */
import type { SessionId } from "../../core/session/ids";

type SyncPhase = "Downloading" | "Decrypting" | "Encrypting" | "Uploading";

export type SyncStatus =
  | { kind: "off" }
  | { kind: "connecting" }
  | { kind: "progress"; phase: SyncPhase; done: number; total: number }
  | { kind: "syncing"; lastSyncedAt?: number }
  | { kind: "idle"; lastSyncedAt: number }
  | { kind: "paused"; lastSyncedAt?: number }
  | { kind: "offline"; message: string; lastSyncedAt?: number }
  | { kind: "error"; message: string };

export type SyncEvents = {
  status(s: SyncStatus): void;
  /** Sessions whose shown branch changed because another device's concurrent one won. */
  leafConflicts(ids: SessionId[]): void;
};
