/**
 * "Another tab is upgrading or deleting the database": schema.ts tells it, the app's startup code
 * (state/app/boot.ts, which may not import schema.ts) listens and reloads.
 * @example
 * onVersionChange(() => location.reload());
 */

/** `newVersion` is the schema version another connection is opening, or null when it deletes the database. */
export type VersionChangeInfo = { newVersion: number | null };
type VersionChangeListener = (info: VersionChangeInfo) => void;

// Module-level (not per connection) so a registration survives closeDb()/getDb() cycles.
const versionChangeListeners = new Set<VersionChangeListener>();

/**
 * Registers `listener` for "another tab is upgrading or deleting the database"; by then this tab's
 * connection is already closed, so the listener should reload the page. Returns the disposer.
 */
export function onVersionChange(listener: VersionChangeListener): () => void {
  versionChangeListeners.add(listener);
  return () => {
    versionChangeListeners.delete(listener);
  };
}

/** Tells every listener (schema.ts, on Dexie's `versionchange`). */
export function tellVersionChange(info: VersionChangeInfo): void {
  for (const listener of versionChangeListeners) {
    // A microtask each, so one throwing listener neither stops the others nor Dexie's event loop.
    queueMicrotask(() => listener(info));
  }
}
