/**
 * Opening the database and reacting to schema changes, for the app's startup code (state/app/boot.ts),
 * which may not import schema.ts.
 * @example
 * onVersionChange(() => location.reload());
 * await openDatabase(); // surfaces an open/upgrade failure at startup, not at the first query
 */
import { getDb } from "./schema";

export { CURRENT_SCHEMA_VERSION, onVersionChange, type VersionChangeInfo, type VersionChangeListener } from "./schema";

/** Opens (and if needed upgrades) the database now. Rejects with Dexie's open error. */
export async function openDatabase(): Promise<void> {
  await getDb().open();
}
