/**
 * PouchDB databases in memory, for unit tests of real replication: PouchDB's IndexedDB adapter does
 * not run on fake-indexeddb, so the memory adapter stands in for both this device and the server.
 * Import after `self` is defined (pouchdb-browser reads it when loaded).
 */

import memoryAdapter from "pouchdb-adapter-memory";
import PouchDB from "pouchdb-browser";

PouchDB.plugin(memoryAdapter);

export function memoryPouch(name: string): PouchDB {
  return new PouchDB(name, { adapter: "memory" });
}
