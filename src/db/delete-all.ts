/**
 * "Delete all data": the whole Grove database goes (every chat, setting, key and draft). Other
 * connections (workers, other tabs) get a versionchange, close and reload (schema.ts), so the
 * deletion is not blocked for long.
 */
import { getDb } from "./schema";

/** Deletes the database. The caller reloads the page: this tab's connection is gone for good. */
export async function deleteDatabase(): Promise<void> {
  await getDb().delete({ disableAutoOpen: true });
}
