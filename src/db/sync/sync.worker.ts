/**
 * The sync worker: encryption, PouchDB replication and copying rows to and from Dexie all run here,
 * so a first sync of a long history never blocks the page.
 */
import { serveWorker } from "../../worker-kit/serve-worker";
import { createSyncApi } from "./sync-api-impl";

serveWorker(createSyncApi());
