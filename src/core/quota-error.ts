/**
 * "The browser's storage is full", recognized in any error shape the storage layers produce, and
 * said in one plain sentence (issue 30.7: the browser's raw text reached the user). Pure: it only
 * reads the error's fields.
 */

/** What the user reads for a write that hit the storage quota, wherever it happened. */
export const STORAGE_FULL_MESSAGE =
  "The browser's storage for Grove is full. Nothing was half-written. Free space by deleting old chats (export them first), then try again.";

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
