/**
 * App start-up: hold this page's owner lock, hydrate settings (kept live across tabs), turn checkpoints
 * left by closed or reloaded pages into "interrupted" replies, load queued messages and send them
 * when their chat is idle, keep the URL and the open session in
 * step, and ask for persistent storage.
 */

import type { SessionId } from "../../core/session/ids";
import { asSessionId } from "../../core/session/ids";
import { holdTreeReads } from "../../db/live";
import { recoverOrphanedCheckpoints } from "../../db/reply-checkpoints";
import { getAllSettings } from "../../db/settings";
import { requestPersistentStorage } from "../../db/storage";
import { subscribeLive } from "../../db/subscribe";
import { onVersionChange } from "../../db/version-change";
import { holdWhileSending } from "../activity/hold-while-sending";
import { CALIBRATION_KEY, calibrationFromRow, useCalibrationStore } from "../context/calibration-store";
import { collectBlobsAfterBoot } from "../data/blob-gc";
import { holdSearchIndexing, startChatSearch } from "../search/search";
import { loadQueued, startQueueFlusher } from "../send/queued-message";
import { settingsFromRows } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { whenFirstScreenIdle, whenOpenSettled } from "./first-screen";
import { sendQueuedMessage } from "./lazy";
import { holdOwnerLock, isOwnerAlive } from "./owner";
import { reportActionError } from "./report-error";
import { registerServiceWorker } from "./service-worker";
import { exposeSendHooksForTests } from "./test-hooks";
import { useUiStore } from "./ui-store";

/** How often a page looks for checkpoints orphaned by other tabs that closed mid-reply. */
const CHECKPOINT_SWEEP_MS = 10_000;

const HASH_PREFIX = "#/s/";

function sessionIdFromHash(hash: string): SessionId | null {
  return hash.startsWith(HASH_PREFIX) && hash.length > HASH_PREFIX.length
    ? asSessionId(decodeURIComponent(hash.slice(HASH_PREFIX.length)))
    : null;
}

function hashForSession(id: SessionId | null): string {
  return id ? `${HASH_PREFIX}${encodeURIComponent(id)}` : "";
}

async function sweepCheckpoints(): Promise<void> {
  try {
    await recoverOrphanedCheckpoints(isOwnerAlive, Date.now());
  } catch (e) {
    reportActionError("Could not recover an interrupted reply", e);
  }
}

/** The settings rows last put into the settings store, and the calibration row last put into its own. */
const hydrated = { settings: "", calibration: "" };

/**
 * The settings table, into the stores: the calibration into its own (it is rewritten after every
 * Claude reply), the settings replaced only when one of their rows changed, so the components
 * reading the settings are not told about a calibration sample.
 */
function hydrateSettings(rows: Record<string, unknown>): void {
  const { [CALIBRATION_KEY]: calibration, ...settingsRows } = rows;
  const calibrationKey = JSON.stringify(calibration ?? null);
  if (calibrationKey !== hydrated.calibration) {
    hydrated.calibration = calibrationKey;
    useCalibrationStore.setState({ table: calibrationFromRow(calibration) });
  }
  const settingsKey = JSON.stringify(settingsRows);
  if (settingsKey === hydrated.settings && useSettingsStore.getState().loaded) return;
  hydrated.settings = settingsKey;
  useSettingsStore.setState({ settings: settingsFromRows(settingsRows), loaded: true });
}

export async function boot(): Promise<() => void> {
  await holdOwnerLock();
  exposeSendHooksForTests();
  onVersionChange(() => window.location.reload());

  const stopSettings = subscribeLive(getAllSettings, hydrateSettings, (e) =>
    reportActionError("Settings could not be read", e),
  );

  await sweepCheckpoints();
  const sweep = setInterval(sweepCheckpoints, CHECKPOINT_SWEEP_MS);

  // Messages queued before a reload were never sent: shown as unsent (Send / Discard) in their chat.
  await loadQueued().catch((e) => reportActionError("Queued messages could not be read", e));
  const stopQueue = startQueueFlusher(sendQueuedMessage);

  // URL <-> open session: a reload or bookmark returns to the same chat.
  useUiStore.setState({ sessionId: sessionIdFromHash(window.location.hash) });
  const onHash = () => {
    const id = sessionIdFromHash(window.location.hash);
    if (id !== useUiStore.getState().sessionId) useUiStore.setState({ sessionId: id, editingId: null });
  };
  window.addEventListener("hashchange", onHash);
  const stopUrl = useUiStore.subscribe((s, prev) => {
    if (s.sessionId === prev.sessionId) return;
    const hash = hashForSession(s.sessionId);
    if (window.location.hash !== hash) {
      history.pushState(null, "", hash || window.location.pathname + window.location.search);
    }
  });

  void requestPersistentStorage().catch(() => false);
  const stopHolds = holdWhileSending([holdSearchIndexing, holdTreeReads]);
  const stopBlobGc = collectBlobsAfterBoot();
  // Nothing below is on the first screen: each starts once it is shown and the page is idle
  // (first-screen.ts). The compaction worker and its tokenizer start with the first count.
  // The search worker loads its saved index (or builds it) and catches up before the first search:
  // seconds of a core and IndexedDB reads, so not while a long chat's tree is still being read.
  whenOpenSettled(startChatSearch);
  // The service worker's precache is megabytes: never during the first open, which goes on after
  // the chat's end is drawn (the rest of its path is read then), so it waits for the open to settle.
  if (import.meta.env.PROD) whenOpenSettled(registerServiceWorker);
  // Sync (when turned on) resumes from its own chunk.
  whenFirstScreenIdle(() => {
    void import("../sync/sync-actions").then(({ resumeSync }) => resumeSync()).catch(() => {});
  });

  return () => {
    stopSettings();
    clearInterval(sweep);
    stopQueue();
    window.removeEventListener("hashchange", onHash);
    stopUrl();
    stopBlobGc();
    stopHolds();
  };
}
