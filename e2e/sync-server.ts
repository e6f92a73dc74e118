/**
 * The real CouchDB-protocol server for the sync specs (scripts/couch-server.mjs, shared with the sync
 * bench), one per Playwright worker. Port: GROVE_E2E_COUCH_PORT, else a free one (two workers, or
 * two checkouts, never share a server: one spec stopping "its" server would stop the other's).
 *
 * @example
 * const couch = await startSyncServer();
 * await couch.stop(); // the server is down: devices keep working and retry
 * await couch.start();
 * const docs = await couch.allDocs("grove");
 */
import { type CouchServer, startCouchServer } from "../scripts/couch-server.mjs";

export type SyncServer = CouchServer;

export function startSyncServer(port = Number(process.env.GROVE_E2E_COUCH_PORT) || undefined): Promise<SyncServer> {
  return startCouchServer({ port });
}
