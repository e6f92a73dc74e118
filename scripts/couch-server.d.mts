/** Types for couch-server.mjs (plain JavaScript so Node runs it without a build step). */
export type CouchServer = {
  /** e.g. http://127.0.0.1:5985 */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Every stored document of a database, bodies included (what the server operator can read). */
  allDocs(db: string): Promise<Array<{ id: string; doc: Record<string, unknown> }>>;
  close(): Promise<void>;
};

export declare function startCouchServer(options?: {
  port?: number;
  root?: string;
  tmpPrefix?: string;
}): Promise<CouchServer>;
