/** PouchDB's in-memory adapter (a dev dependency, for unit tests: fake-indexeddb fails PouchDB's IndexedDB adapter). */
declare module "pouchdb-adapter-memory" {
  const plugin: unknown;
  export default plugin;
}
