/**
 * When unreferenced attachment bytes are collected: in the background a while after boot, and after
 * a chat is deleted (its images may have been the last references). Best effort: a failure is
 * silent, the next run tries again. The rule (what is unreferenced, the grace period) is db/blobs.ts's.
 */
import { collectUnreferencedBlobs } from "../../db/blobs";
import { composerBlobIds } from "../composer/composer-attachments";

/** After boot, the collector waits this long, so it never competes with the first paint and reads. */
const BLOB_GC_BOOT_DELAY_MS = 30_000;

let running: Promise<unknown> | null = null;

/** Runs the collector unless a run is already going. */
export function collectBlobsNow(): Promise<unknown> {
  running ??= collectUnreferencedBlobs(Date.now(), composerBlobIds())
    .catch(() => 0)
    .finally(() => {
      running = null;
    });
  return running;
}

/** Schedules the boot-time run; returns its canceller. */
export function collectBlobsAfterBoot(delayMs: number = BLOB_GC_BOOT_DELAY_MS): () => void {
  const timer = setTimeout(() => void collectBlobsNow(), delayMs);
  return () => clearTimeout(timer);
}
