/**
 * The user's server (a CouchDB-protocol database): the database URL for what the user typed,
 * opening it, creating a document only when it is missing, and its failures in the user's words.
 */
import PouchDB, { type PouchDoc } from "pouchdb-browser";
import type { SyncConfig } from "./sync-meta";

/** The database URL for what the user typed: a server URL alone means its `grove` database. */
export function databaseUrl(url: string): string {
  const parsed = new URL(url.trim());
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/grove";
  return parsed.toString().replace(/\/$/, "");
}

/** The document `id`, made by `make` when the server has none (another device's, if it made one at the same moment). */
export async function getOrCreate<T extends PouchDoc>(db: PouchDB, id: string, make: () => Promise<T> | T): Promise<T> {
  try {
    return (await db.get(id)) as T;
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
  }
  try {
    await db.put(await make());
  } catch (e) {
    // Another device created it at the same moment: use theirs.
    if ((e as { status?: number }).status !== 409) throw e;
  }
  return (await db.get(id)) as T;
}

/**
 * The server's database. With a username, Grove never tries to create it: on CouchDB a user's
 * database is made by the admin (README "Sync"), and the attempt itself fails or, on pouchdb-server,
 * crashes the server. Without one (a server open to all, e.g. a local test server) it is created.
 */
export function remoteDb(dbUrl: string, config: SyncConfig): PouchDB {
  const auth = config.username ? { auth: { username: config.username, password: config.password } } : {};
  return new PouchDB(dbUrl, { ...auth, skip_setup: Boolean(config.username) });
}

/** A PouchDB/fetch failure in the user's words. */
export function describeServerError(e: unknown, dbUrl: string): string {
  const status = (e as { status?: number }).status;
  if (status === 401 || status === 403) return "The server refused the username or password.";
  if (status === 404) return `There is no database at ${dbUrl}: ask the server's admin to create it for this user.`;
  const message = e instanceof Error ? e.message : String((e as { message?: unknown }).message ?? e);
  return `Cannot reach the sync server at ${dbUrl}: ${message || "no answer"}.`;
}
