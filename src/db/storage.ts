/**
 * Browser storage facts: persistence, usage/quota. Recognizing "the disk is full" errors is
 * core/quota-error.ts.
 */

/**
 * Asks the browser not to evict Grove's data under storage pressure. Resolves true when storage is
 * (now) persistent, false when refused or unsupported.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = typeof navigator === "undefined" ? undefined : navigator.storage;
  if (!storage || typeof storage.persist !== "function") return false;
  if (typeof storage.persisted === "function" && (await storage.persisted())) return true;
  return storage.persist();
}

/** Bytes used and available to this origin, or null when the browser doesn't say. */
export async function storageEstimate(): Promise<{ usage: number; quota: number } | null> {
  const storage = typeof navigator === "undefined" ? undefined : navigator.storage;
  if (!storage || typeof storage.estimate !== "function") return null;
  const { usage, quota } = await storage.estimate();
  if (usage === undefined || quota === undefined) return null;
  return { usage, quota };
}
