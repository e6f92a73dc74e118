/**
 * The slice of PouchDB's API the sync engine uses (pouchdb-browser ships no types, and
 * @types/pouchdb is not installed). Documents are kept loose (`PouchDoc`): every body Grove stores is
 * an encrypted envelope or the salt document, checked at runtime (crypto.ts).
 */
declare module "pouchdb-browser" {
  export type PouchDoc = { _id: string; _rev?: string; _deleted?: boolean; _conflicts?: string[] } & Record<
    string,
    unknown
  >;
  export type PutResult = { ok?: boolean; id: string; rev: string; error?: string; status?: number };
  export type AllDocsRow = {
    id: string;
    key: string;
    value?: { rev: string; deleted?: boolean };
    error?: string;
    doc?: PouchDoc | null;
  };
  export type ChangeRow = { id: string; seq: number | string; deleted?: boolean; doc?: PouchDoc };
  export type ChangesResponse = { results: ChangeRow[]; last_seq: number | string };
  export type DbInfo = { doc_count: number; update_seq: number | string; db_name: string };
  export type ReplicationInfo = { docs_read: number; docs_written: number; last_seq?: unknown };
  export type SyncChange = { direction: "push" | "pull"; change: ReplicationInfo };

  export interface EventEmitterLike {
    on(event: string, listener: (arg: never) => void): this;
    cancel(): void;
  }
  export interface Replication extends EventEmitterLike, PromiseLike<ReplicationInfo> {}
  export interface Changes extends EventEmitterLike {}

  export type DatabaseOptions = {
    auth?: { username: string; password: string };
    skip_setup?: boolean;
    auto_compaction?: boolean;
    fetch?: (url: string | Request, init?: RequestInit) => Promise<Response>;
    /** Unit tests only: "memory" (testing/memory-pouch.ts). */
    adapter?: string;
  };
  export type ReplicateOptions = {
    live?: boolean;
    retry?: boolean;
    batch_size?: number;
    batches_limit?: number;
    back_off_function?: (delay: number) => number;
    doc_ids?: string[];
    since?: number | string;
    checkpoint?: boolean | "source" | "target";
  };

  export default class PouchDB {
    constructor(name: string, options?: DatabaseOptions);
    info(): Promise<DbInfo>;
    get(id: string, options?: { rev?: string; conflicts?: boolean }): Promise<PouchDoc>;
    put(doc: PouchDoc): Promise<PutResult>;
    bulkDocs(docs: PouchDoc[]): Promise<PutResult[]>;
    allDocs(options: { keys?: string[]; include_docs?: boolean; conflicts?: boolean; limit?: number }): Promise<{
      rows: AllDocsRow[];
      total_rows: number;
    }>;
    changes(options: {
      since?: number | string;
      include_docs?: boolean;
      conflicts?: boolean;
      limit?: number;
      live?: boolean;
    }): Promise<ChangesResponse> & Changes;
    sync(remote: PouchDB, options?: ReplicateOptions): EventEmitterLike;
    destroy(): Promise<void>;
    close(): Promise<void>;
    static replicate(source: PouchDB, target: PouchDB, options?: ReplicateOptions): Replication;
    /** Unit tests only: adds an adapter (testing/memory-pouch.ts). */
    static plugin(plugin: unknown): void;
  }
}
