/**
 * Sync actions (Settings › Sync): connect, disconnect, sync now, cancel, and resuming a stored
 * connection at startup. The engine runs in the sync worker (db/sync/); this module turns its
 * events into the sync store and, for a branch another device's concurrent edit replaced, one notice.
 */
import type { SessionId } from "../../core/session/ids";
import { getSession } from "../../db/sessions";
import {
  cancelSync as cancelInWorker,
  connectSync,
  disconnectSync,
  resumeSync as resumeInWorker,
  storedSyncConfig,
  syncNow as syncNowInWorker,
} from "../../db/sync/client";
import type { SyncConfig } from "../../db/sync/sync-meta";
import type { SyncEvents } from "../../db/sync/sync-status";
import { describeFailure } from "../app/describe-failure";
import { reportActionError } from "../app/report-error";
import { pushNotice } from "../app/ui-store";
import { useSyncStore } from "./sync-store";

async function noticeLeafConflicts(ids: SessionId[]): Promise<void> {
  for (const id of ids) {
    const title = (await getSession(id))?.title ?? "A chat";
    pushNotice(
      "info",
      `“${title}” was continued on another device at the same time: it now shows the latest branch, and the other one is kept beside it (use the branch arrows or the graph).`,
    );
  }
}

const connectedView = (config: SyncConfig) => ({
  url: config.url,
  username: config.username,
  hasPassword: config.password !== "",
});

const events: SyncEvents = {
  status: (status) => useSyncStore.setState({ status }),
  leafConflicts: (ids) => {
    void noticeLeafConflicts(ids).catch(() => {});
  },
};

export async function resumeSync(): Promise<void> {
  try {
    const config = await storedSyncConfig();
    if (!config) return;
    useSyncStore.setState({ connected: connectedView(config) });
    await resumeInWorker(events);
  } catch (e) {
    reportActionError("Sync could not start", e);
  }
}

/** Returns whether it connected; a failure is in the store's `problem` and nothing local changed. */
export async function connect(config: SyncConfig, passphrase: string): Promise<boolean> {
  useSyncStore.setState({ busy: true, problem: undefined });
  try {
    const result = await connectSync(events, config, passphrase);
    if (!result.ok) {
      useSyncStore.setState({ problem: result.message });
      return false;
    }
    useSyncStore.setState({ connected: connectedView(config) });
    return true;
  } catch (e) {
    useSyncStore.setState({ problem: `Could not connect: ${describeFailure(e)}` });
    return false;
  } finally {
    useSyncStore.setState({ busy: false });
  }
}

export async function disconnect(): Promise<void> {
  useSyncStore.setState({ busy: true });
  try {
    await disconnectSync(events);
    useSyncStore.setState({ connected: undefined, problem: undefined, status: { kind: "off" } });
  } catch (e) {
    reportActionError("Could not disconnect sync", e);
  } finally {
    useSyncStore.setState({ busy: false });
  }
}

export function syncNow(): void {
  void syncNowInWorker(events).catch((e) => reportActionError("Sync failed", e));
}

export function cancelSync(): void {
  void cancelInWorker(events).catch((e) => reportActionError("Could not cancel sync", e));
}
