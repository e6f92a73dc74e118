import { describe, expect, it } from "vitest";
import { clockTime, syncStatusText } from "./sync-status-text";

describe("the Sync status line", () => {
  it("reads progress with grouped numbers, then Up to date with the time", () => {
    expect(syncStatusText({ kind: "progress", phase: "Uploading", done: 12480, total: 40112 })).toBe(
      "Uploading 12,480 of 40,112 entries",
    );
    const at = Date.UTC(2026, 0, 1, 10, 42);
    expect(syncStatusText({ kind: "idle", lastSyncedAt: at })).toBe(`Up to date · last synced ${clockTime(at)}`);
    expect(clockTime(at)).toMatch(/\d{1,2}:42/);
  });

  it("says what to do when paused, offline or off", () => {
    expect(syncStatusText({ kind: "paused" })).toBe("Paused: press Sync now to continue");
    expect(syncStatusText({ kind: "offline", message: "Cannot reach the sync server." })).toMatch(/^Offline, retrying/);
    expect(syncStatusText({ kind: "off" })).toMatch(/^Not connected/);
  });
});
