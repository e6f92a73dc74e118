/**
 * Row types of the sync tables (schema v7). Persisted shapes: change them only with a schema version.
 */
import type { SessionId } from "../../core/session/ids";

/**
 * What this device last exchanged for one record. `ref` is the record's local name (`e:<entry id>`,
 * core/sync/records.ts). For mutable records, `hlc` is the stamp of the version stored here and
 * `digest` its content fingerprint (a local edit changes the digest: a new version to send).
 * `rev` is the document revision this device wrote or applied, so its own writes coming back from
 * the changes feed are recognized and skipped.
 */
export type SyncStateRow = {
  ref: string;
  docId: string;
  sessionId?: SessionId;
  hlc?: string;
  digest?: string;
  rev?: string;
  /** A deleted session: its records arriving late are ignored. */
  gone?: true;
};

export type SyncMetaRow = { key: string; value: unknown };
