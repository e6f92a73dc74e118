/**
 * The Dexie database: schema versions, the lazy singleton and the versionchange handling.
 * Private to db/: nothing outside db/ imports this file (or dexie). The verbs in the sibling
 * modules are the only way in.
 */
import { Dexie, type Table, type Transaction } from "dexie";
import type { Entry, Session } from "../core/session/entries";
import type { BlobId, EntryId, SessionId } from "../core/session/ids";
import type {
  BlobRow,
  ComposerAttachmentRow,
  ComposerDraftRow,
  LabelRow,
  LegacyComposerDraftRow,
  MemoryCheckCostRow,
  QueuedRow,
  ReplyCheckpoint,
  SearchIndexRow,
  SettingRow,
  TokenCountRow,
} from "./rows";
import type { SyncMetaRow, SyncStateRow } from "./sync/sync-rows";
import { tellVersionChange, type VersionChangeInfo } from "./version-change";

const DB_NAME = "grove";

/** One shipped schema version: its stores (Dexie syntax; `null` drops a table) and its data migration. */
export type SchemaVersion = {
  readonly version: number;
  readonly stores: Readonly<Record<string, string | null>>;
  /**
   * Runs inside the upgrade transaction when a database older than `version` is opened.
   * Contract: only Dexie calls on `tx` (no fetch, no timers); throwing aborts the whole upgrade and
   * leaves the old database untouched, so the next open retries.
   */
  readonly upgrade?: (tx: Transaction) => PromiseLike<unknown> | undefined;
};

/**
 * Every shipped version, oldest first, each next to its upgrade. Never edit a shipped entry:
 * append the next version, and add its fixture (testing/schema-fixtures.ts) and test (schema.test.ts).
 */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  {
    version: 1,
    stores: {
      sessions: "id, updatedAt",
      entries: "id, sessionId, [sessionId+parentId]",
      drafts: "id, sessionId",
      settings: "key",
      labels: "&entryId, sessionId",
      tokenCounts: "[entryId+encoding]",
      blobs: "id",
    },
    // v1 creates the tables; there is nothing older to migrate.
  },
  {
    version: 2,
    stores: {
      // A message typed while maintenance ran on its chat, waiting to be sent (one per chat).
      queued: "sessionId",
    },
    // A new, empty table: nothing to migrate.
  },
  {
    version: 3,
    stores: {
      // What the user has typed into a chat's composer and not sent yet (one per chat).
      composerDrafts: "sessionId",
    },
    // A new, empty table: nothing to migrate.
  },
  {
    version: 4,
    stores: {
      // Drops the [sessionId+parentId] index: nothing ever queried it (a path is walked by keyed gets
      // on parentId, a session's tree is read by sessionId), and every entry write paid for it.
      entries: "id, sessionId",
    },
    // Only an index goes: IndexedDB deletes it, the rows are not touched.
  },
  {
    version: 6,
    stores: {
      // The chat search index, serialized (db/search): a cache of the entries' words, rebuilt when missing.
      searchIndex: "key",
    },
    // A new, empty table: the index is built from the entries on first use.
  },
  {
    version: 7,
    stores: {
      // Sync (db/sync/): what this device last exchanged for each record (`e:<entry id>`, ...), and
      // the sync connection (server, keys, checkpoints). Never synced themselves.
      syncState: "ref, docId, sessionId",
      syncMeta: "key",
    },
    // New, empty tables: nothing to migrate.
  },
  {
    version: 9,
    // No store changes: the search index is saved in segments now (`segment:<n>` rows).
    stores: {},
    // The index saved whole by v6 (one `chats` row, tens of MB) is never read again: dropped at
    // once. It is a cache; the search worker rebuilds the index from the entries.
    upgrade: (tx) => tx.table("searchIndex").delete("chats"),
  },
  {
    version: 10,
    stores: {
      // Adds [sessionId+id]: a session's tree is read in id order a chunk at a time, each chunk
      // starting after the last id read (db/entries.ts getEntriesInChunks). Before, the chunks were
      // found from all of the session's ids read at once, and inside a live query Dexie recorded
      // every one of those keys (10,000 inserts into its range set: a 100 ms task on the page).
      entries: "id, sessionId, [sessionId+id]",
    },
    // Only an index is added: IndexedDB builds it from the rows, which are not touched.
  },
  {
    version: 11,
    stores: {
      // The files attached in a composer, one row each (db/composer-drafts.ts): the draft row keeps
      // only their ids, so a debounced save of the text no longer rewrites a pasted 1 MB file.
      composerAttachments: "id, sessionId",
    },
    // Each draft's inline attachments move to rows of their own, in order, ids `<session id>:<n>`.
    upgrade: (tx) => moveDraftAttachmentsToRows(tx),
  },
  {
    version: 12,
    stores: {
      // What each run of "Check memory" cost (db/memory-check-costs.ts): its side requests never enter
      // the tree, so Spending and Chat info read them here, by month (createdAt) or by chat (sessionId).
      memoryCheckCosts: "id, sessionId, createdAt",
    },
    // A new, empty table: checks run before it were never recorded.
  },
];

/** v11's upgrade: every draft's inline attachments become composerAttachments rows, in order. */
async function moveDraftAttachmentsToRows(tx: Transaction): Promise<void> {
  const drafts = tx.table<LegacyComposerDraftRow & ComposerDraftRow, SessionId>("composerDrafts");
  const rows: ComposerAttachmentRow[] = [];
  await drafts.toCollection().modify((draft) => {
    const attachments = draft.attachments ?? [];
    delete draft.attachments;
    if (attachments.length === 0) return;
    const ids = attachments.map((_, i) => `${draft.sessionId}:${i}`);
    for (const [i, block] of attachments.entries()) rows.push({ id: ids[i]!, sessionId: draft.sessionId, block });
    draft.attachmentIds = ids;
  });
  await tx.table<ComposerAttachmentRow, string>("composerAttachments").bulkAdd(rows);
}

export const CURRENT_SCHEMA_VERSION = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!.version;

/** The stores of a database at `version`: every version's up to it, later over earlier. */
function storesAt(version: number): Record<string, string | null> {
  const stores: Record<string, string | null> = {};
  for (const v of SCHEMA_VERSIONS) if (v.version <= version) Object.assign(stores, v.stores);
  return stores;
}

/**
 * Declares what Dexie needs to open a database of any shipped version: each version with an
 * upgrade, and the current one, each with its whole schema. Dexie (since 3.0) reads an older
 * database's tables and indexes from the database itself and diffs them against the next declared
 * version, so a version without an upgrade needs no declaration of its own (schema.test.ts opens a
 * database of every shipped version). Fewer is faster: each `stores()` re-parses every version
 * declared before it, and all eleven were a 30–50 ms task of a cold open (issue 25).
 */
function declareVersions(db: Dexie): void {
  for (const v of SCHEMA_VERSIONS) {
    if (v.upgrade === undefined && v.version !== CURRENT_SCHEMA_VERSION) continue;
    const declared = db.version(v.version).stores(storesAt(v.version));
    if (v.upgrade) declared.upgrade(v.upgrade);
  }
}

export class GroveDb extends Dexie {
  declare sessions: Table<Session, SessionId>;
  declare entries: Table<Entry, EntryId>;
  declare drafts: Table<ReplyCheckpoint, EntryId>;
  declare settings: Table<SettingRow, string>;
  declare labels: Table<LabelRow, EntryId>;
  declare tokenCounts: Table<TokenCountRow, [EntryId, string]>;
  declare blobs: Table<BlobRow, BlobId>;
  declare queued: Table<QueuedRow, SessionId>;
  declare composerDrafts: Table<ComposerDraftRow, SessionId>;
  declare composerAttachments: Table<ComposerAttachmentRow, string>;
  declare memoryCheckCosts: Table<MemoryCheckCostRow, string>;
  declare searchIndex: Table<SearchIndexRow, string>;
  declare syncState: Table<SyncStateRow, string>;
  declare syncMeta: Table<SyncMetaRow, string>;

  constructor(name: string) {
    super(name);
    declareVersions(this);
    // Another tab wants to upgrade (or delete) the database. Close for good (no auto-reopen: this
    // tab's code speaks the old schema and must not write into the new one) and let the app reload.
    this.on("versionchange", (event) => {
      this.close({ disableAutoOpen: true });
      const info: VersionChangeInfo = {
        newVersion: event.newVersion === null || event.newVersion === 0 ? null : event.newVersion / 10,
      };
      tellVersionChange(info);
      return false;
    });
  }
}

// ---- the singleton ----------------------------------------------------------------------------

let dbName = DB_NAME;
let instance: GroveDb | null = null;

/** The database, created on first use (Dexie opens it on the first query). */
export function getDb(): GroveDb {
  instance ??= new GroveDb(dbName);
  return instance;
}

/** Closes the connection; the next getDb() creates a new one. */
export function closeDb(): void {
  instance?.close();
  instance = null;
}

/**
 * Tests: point getDb() at another database name (closing the current connection). Not named
 * `use…`: it is no React hook.
 */
export function setTestDatabase(name: string): void {
  closeDb();
  dbName = name;
}
