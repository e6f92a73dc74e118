/** What the browser lets Grove store, for the Settings page. */
import { storageEstimate } from "../../db/storage";

export type StorageInfo = { usage: number; quota: number; persisted: boolean };

export async function readStorage(): Promise<StorageInfo | null> {
  try {
    const estimate = await storageEstimate();
    if (!estimate) return null;
    const persisted =
      typeof navigator !== "undefined" && navigator.storage?.persisted ? await navigator.storage.persisted() : false;
    return { ...estimate, persisted };
  } catch {
    return null;
  }
}
