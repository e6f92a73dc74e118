/**
 * The real CouchDB-protocol server for the sync specs (scripts/couch-server.mjs, shared with the sync
 * bench). Port: GROVE_E2E_COUCH_PORT (default 5985).
 *
 * @example
 * const couch = await startSyncServer();
 * await couch.stop(); // the server is down: devices keep working and retry
 * await couch.start();
 * const docs = await couch.allDocs("grove");
 */
import { type CouchServer, startCouchServer } from "../scripts/couch-server.mjs";

export type SyncServer = CouchServer;

export function startSyncServer(port = Number(process.env.GROVE_E2E_COUCH_PORT) || 5985): Promise<SyncServer> {
  return startCouchServer({ port });
}
