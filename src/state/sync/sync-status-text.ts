import type { SyncStatus } from "../../db/sync/sync-status";

/** The sentence the Settings › Sync status shows for an engine status (one place for the wording). */

const count = (n: number) => n.toLocaleString("en-US");

/** "10:42" in the user's locale, 24-hour where the locale is. */
export function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

export function syncStatusText(status: SyncStatus): string {
  const since = (at: number | undefined) => (at === undefined ? "" : ` · last synced ${clockTime(at)}`);
  switch (status.kind) {
    case "off":
      return "Not connected: everything stays on this device.";
    case "connecting":
      return "Connecting…";
    case "progress":
      return `${status.phase} ${count(status.done)} of ${count(status.total)} entries`;
    case "syncing":
      return `Syncing…${since(status.lastSyncedAt)}`;
    case "idle":
      return `Up to date${since(status.lastSyncedAt)}`;
    case "paused":
      return `Paused: press Sync now to continue${since(status.lastSyncedAt)}`;
    case "offline":
      return `Offline, retrying: ${status.message}${since(status.lastSyncedAt)}`;
    case "error":
      return status.message;
  }
}
