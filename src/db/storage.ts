/**
 * Browser storage facts: persistence, usage/quota, and recognizing "the disk is full" errors.
 * No Dexie here beyond the error shapes it produces.
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

// Dexie keeps the native DOMException name ("QuotaExceededError", Dexie.errnames.QuotaExceeded) and
// wraps it: an aborted transaction rejects with an AbortError whose `inner` is the quota error, and
// bulk writes reject with a BulkError listing `failures`. Older Firefox says NS_ERROR_DOM_QUOTA_REACHED.
const QUOTA_NAMES = new Set(["QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED"]);
const MAX_DEPTH = 5;

/** Whether `e` (from a db/ verb or a raw IndexedDB call) means the storage quota was exceeded. */
export function isQuotaError(e: unknown): boolean {
  return isQuotaErrorAt(e, 0);
}

function isQuotaErrorAt(e: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof e !== "object" || e === null) return false;
  const name: unknown = Reflect.get(e, "name");
  if (typeof name === "string" && QUOTA_NAMES.has(name)) return true;
  if (isQuotaErrorAt(Reflect.get(e, "inner"), depth + 1)) return true;
  if (isQuotaErrorAt(Reflect.get(e, "cause"), depth + 1)) return true;
  const failures: unknown = Reflect.get(e, "failures");
  return Array.isArray(failures) && failures.some((f) => isQuotaErrorAt(f, depth + 1));
}
