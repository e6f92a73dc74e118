/**
 * Migration fixtures (test-only): for each shipped schema version n, a database exactly as version
 * n-1 of the app left it, and the rows version n must find in it after upgrading.
 *
 * Adding schema version n+1: copy its stores into SHIPPED_STORES, add `fromV{n}` below (`stores:
 * storesAt(n)`, rows in that version's shapes, `expected` in the new shapes), then one
 * `it(...)` in schema.test.ts calling `expectUpgradeKeepsEveryRow(fromV{n})`.
 */
import { Dexie } from "dexie";
import type { Entry, Session } from "../../core/session/entries";
import { asEntryId, asSessionId, type BlobId } from "../../core/session/ids";
import type {
  BlobRow,
  ComposerAttachmentRow,
  ComposerDraftRow,
  LabelRow,
  LegacyComposerDraftRow,
  MemoryCheckCostRow,
  QueuedRow,
  ReplyCheckpoint,
  SettingRow,
  TokenCountRow,
} from "../rows";

export type Rows = Readonly<Record<string, readonly unknown[]>>;

export type SchemaFixture = {
  /** The schema version the fixture database is at; 0 = an IndexedDB database with no Grove tables. */
  readonly fromVersion: number;
  /** That version's stores, frozen here as shipped (so an edit to a shipped version fails the test). */
  readonly stores: Readonly<Record<string, string | null>> | null;
  /** Rows per table, in that version's shapes. */
  readonly rows: Rows;
  /** Rows per table after the upgrade (equal to `rows` unless the upgrade rewrites them). */
  readonly expected: Rows;
};

/** Writes `fixture` as a database called `name`, then closes it. */
export async function writeFixture(name: string, fixture: SchemaFixture): Promise<void> {
  if (fixture.stores === null) {
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open(name, 1);
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    return;
  }
  const db = new Dexie(name);
  db.version(fixture.fromVersion).stores({ ...fixture.stores });
  await db.open();
  await db.transaction("rw", db.tables, async () => {
    for (const [table, rows] of Object.entries(fixture.rows)) await db.table(table).bulkAdd([...rows]);
  });
  db.close();
}

/**
 * The stores of every shipped version, copied literally when it shipped. schema.test.ts checks
 * SCHEMA_VERSIONS against this, so editing a shipped version (instead of adding one) fails.
 */
export const SHIPPED_STORES: Readonly<Record<number, Readonly<Record<string, string | null>>>> = {
  1: {
    sessions: "id, updatedAt",
    entries: "id, sessionId, [sessionId+parentId]",
    drafts: "id, sessionId",
    settings: "key",
    labels: "&entryId, sessionId",
    tokenCounts: "[entryId+encoding]",
    blobs: "id",
  },
  2: { queued: "sessionId" },
  3: { composerDrafts: "sessionId" },
  4: { entries: "id, sessionId" },
  6: { searchIndex: "key" },
  7: { syncState: "ref, docId, sessionId", syncMeta: "key" },
  9: {},
  10: { entries: "id, sessionId, [sessionId+id]" },
  11: { composerAttachments: "id, sessionId" },
  12: { memoryCheckCosts: "id, sessionId, createdAt" },
};

/** A database's stores at `version`: every shipped version's up to it, later ones over earlier. */
export function storesAt(version: number): Record<string, string | null> {
  const versions = Object.keys(SHIPPED_STORES)
    .map(Number)
    .filter((v) => v <= version)
    .sort((a, b) => a - b);
  return Object.assign({}, ...versions.map((v) => SHIPPED_STORES[v]));
}

/** Before v1: the database name exists but holds nothing (e.g. a first open that crashed). */
export const fromV0: SchemaFixture = { fromVersion: 0, stores: null, rows: {}, expected: {} };

/** A v1 database with a chat in it: v2 only adds the (empty) queued table, every row stays. */
export const fromV1: SchemaFixture = {
  fromVersion: 1,
  stores: SHIPPED_STORES[1] ?? null,
  get rows(): Rows {
    return v1Rows;
  },
  get expected(): Rows {
    return v1Rows;
  },
};

/** A v2 database with a chat and a queued message: v3 only adds the (empty) composerDrafts table. */
export const fromV2: SchemaFixture = {
  fromVersion: 2,
  get stores() {
    return storesAt(2);
  },
  get rows(): Rows {
    return v2Rows;
  },
  get expected(): Rows {
    return v2Rows;
  },
};

/** A v3 database with a branched chat, a queued message and a composer draft: v4 only drops an index. */
export const fromV3: SchemaFixture = {
  fromVersion: 3,
  get stores() {
    return storesAt(3);
  },
  get rows(): Rows {
    return v3Rows;
  },
  get expected(): Rows {
    return v3Rows;
  },
};

/**
 * A v4 database with a branched chat: v6 only adds the (empty) searchIndex table, v7 the (empty)
 * sync tables (v5 is another change's number; Dexie allows the gap).
 */
export const fromV4: SchemaFixture = {
  fromVersion: 4,
  get stores() {
    return storesAt(4);
  },
  get rows(): Rows {
    return v3Rows;
  },
  get expected(): Rows {
    return v3Rows;
  },
};

/**
 * A v7 database with a branched chat, sync state and the search index saved whole (v6's one
 * `chats` row): v9 deletes that row (the index is saved in segments now and rebuilt from the
 * entries, a cache) and keeps every other row.
 */
export const fromV7: SchemaFixture = {
  fromVersion: 7,
  get stores() {
    return storesAt(7);
  },
  get rows(): Rows {
    return {
      ...v7Rows,
      searchIndex: [{ key: "chats", data: { format: 1, index: "{}", chats: {} }, savedAt: 5 }],
    };
  },
  get expected(): Rows {
    return v7Rows;
  },
};

/** A v9 database with a branched chat and sync state: v10 only adds an index on the entries. */
export const fromV9: SchemaFixture = {
  fromVersion: 9,
  get stores() {
    return storesAt(9);
  },
  get rows(): Rows {
    return v7Rows;
  },
  get expected(): Rows {
    return v7Rows;
  },
};

/**
 * A v10 database whose composer drafts hold their attachments inline (a pasted text file and an
 * image; another draft only text): v11 moves each attachment to a composerAttachments row of its
 * own, in order, and the draft keeps their ids.
 */
export const fromV10: SchemaFixture = {
  fromVersion: 10,
  get stores() {
    return storesAt(10);
  },
  get rows(): Rows {
    return { ...v7Rows, composerDrafts: v10Drafts };
  },
  get expected(): Rows {
    const [withFiles, textOnly] = v10Drafts;
    const files = withFiles?.attachments ?? [];
    const attachments: ComposerAttachmentRow[] = files.map((block, i) => ({
      id: `${v1Session}:${i}`,
      sessionId: v1Session,
      block,
    }));
    const { attachments: _inline, ...draft } = withFiles!;
    const drafts: ComposerDraftRow[] = [{ ...draft, attachmentIds: attachments.map((a) => a.id) }, textOnly!];
    return { ...v7Rows, composerDrafts: drafts, composerAttachments: attachments };
  },
};

/** A v11 database with a chat, sync state and a composer draft with a file: v12 only adds the (empty) memoryCheckCosts table. */
export const fromV11: SchemaFixture = {
  fromVersion: 11,
  get stores() {
    return storesAt(11);
  },
  get rows(): Rows {
    return fromV10.expected;
  },
  get expected(): Rows {
    return fromV10.expected;
  },
};

// ---- rows in the current schema's shapes, written after an upgrade to check they survive a reopen ----

const sid = asSessionId("0190a0a0-0000-7000-8000-000000000001");
const root = asEntryId("0190a0a0-0000-7000-8000-000000000010");
const reply = asEntryId("0190a0a0-0000-7000-8000-000000000011");
const checkpointId = asEntryId("0190a0a0-0000-7000-8000-000000000012");
const blobId = "0190a0a0-0000-7000-8000-000000000020" as BlobId;

const session: Session = {
  id: sid,
  title: "Fixture",
  titleSource: "user",
  createdAt: 1,
  updatedAt: 2,
  leafId: reply,
  systemPrompt: "Be brief.",
  model: { providerId: "anthropic", modelId: "claude-test" },
};
const entries: Entry[] = [
  {
    id: root,
    sessionId: sid,
    parentId: null,
    createdAt: 1,
    type: "message",
    role: "user",
    content: [
      { type: "text", text: "hi" },
      { type: "image", blobId, mimeType: "image/png" },
    ],
    status: "complete",
  },
  {
    id: reply,
    sessionId: sid,
    parentId: root,
    createdAt: 2,
    type: "message",
    role: "assistant",
    content: [
      { type: "thinking", text: "hmm", signature: "sig", signedBy: "anthropic-messages" },
      { type: "text", text: "hello" },
    ],
    status: "complete",
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-test",
    usage: { input: 3, output: 1, cacheRead: 0 },
    stopReason: "end",
  },
];
const checkpoints: ReplyCheckpoint[] = [
  { id: checkpointId, sessionId: sid, parentId: reply, ownerId: "p", content: [], startedAt: 3, updatedAt: 4 },
];
const settings: SettingRow[] = [{ key: "theme", value: { mode: "dark", size: 14 } }];
const labels: LabelRow[] = [{ entryId: root, sessionId: sid, text: "start" }];
const tokenCounts: TokenCountRow[] = [{ entryId: root, encoding: "o200k_base", count: 2 }];
const blobs: BlobRow[] = [{ id: blobId, data: new Blob(["png"]), mimeType: "image/png", size: 3, createdAt: 1 }];
const queued: QueuedRow[] = [{ sessionId: sid, text: "and dates too", queuedAt: 5 }];
const composerAttachments: ComposerAttachmentRow[] = [
  {
    id: "0190a0a0-0000-7000-8000-000000000030",
    sessionId: sid,
    block: { type: "image", blobId, mimeType: "image/png" },
  },
];
const composerDrafts: ComposerDraftRow[] = [
  { sessionId: sid, text: "half a thought", attachmentIds: [composerAttachments[0]!.id], updatedAt: 6 },
];

const memoryCheckCosts: MemoryCheckCostRow[] = [
  {
    id: "0190a0a0-0000-7000-8000-000000000040",
    sessionId: sid,
    compactionId: reply,
    createdAt: 7,
    usage: [{ model: "claude-test", usage: { input: 30, output: 4 } }],
  },
];

/** One row (or two) in every table of the current schema. */
export const currentRows: Rows = {
  sessions: [session],
  entries,
  drafts: checkpoints,
  settings,
  labels,
  tokenCounts,
  blobs,
  queued,
  composerDrafts,
  composerAttachments,
  memoryCheckCosts,
  syncState: [{ ref: `e:${root}`, docId: "g00", sessionId: sid, rev: "1-a" }],
  syncMeta: [{ key: "inbound", value: { since: 3, deferred: [] } }],
};

const v1Session = asSessionId("0190a0a0-0000-7000-8000-000000000101");
const v1Entry = asEntryId("0190a0a0-0000-7000-8000-000000000110");
/** A chat as v1 stored it (ids apart from currentRows', which are added after the upgrade). */
const v1Rows: Rows = {
  sessions: [{ ...session, id: v1Session, leafId: v1Entry }],
  entries: [{ ...entries[0], id: v1Entry, sessionId: v1Session, content: [{ type: "text", text: "v1" }] }],
  settings: [{ key: "compaction", value: { enabled: true } }],
  labels: [{ entryId: v1Entry, sessionId: v1Session, text: "old" }],
};

/** A chat as v2 stored it, with a queued message. */
const v2Rows: Rows = {
  ...v1Rows,
  queued: [{ sessionId: v1Session, text: "queued in v2", queuedAt: 7 }],
};

const v3Reply = asEntryId("0190a0a0-0000-7000-8000-000000000111");
const v3Sibling = asEntryId("0190a0a0-0000-7000-8000-000000000112");
/**
 * A chat as v3 stored it: two replies to the same message (the rows the dropped
 * [sessionId+parentId] index grouped), a queued message and a composer draft.
 */
const v3Rows: Rows = {
  ...v2Rows,
  sessions: [{ ...session, id: v1Session, leafId: v3Sibling }],
  entries: [
    ...(v1Rows.entries ?? []),
    { ...entries[1], id: v3Reply, sessionId: v1Session, parentId: v1Entry },
    { ...entries[1], id: v3Sibling, sessionId: v1Session, parentId: v1Entry, createdAt: 3 },
  ],
  composerDrafts: [{ sessionId: v1Session, text: "typed in v3", updatedAt: 8 }],
};

/** A chat as v7 stored it, with what sync had exchanged. */
const v7Rows: Rows = {
  ...v3Rows,
  syncState: [{ ref: `e:${v1Entry}`, docId: "g01", sessionId: v1Session, rev: "1-b" }],
  syncMeta: [{ key: "outbound", value: { seq: 4 } }],
};

const v10NewChat = "new-chat" as ReturnType<typeof asSessionId>;
/** Drafts as v3–v10 stored them: a chat's with two files inline, the new-chat screen's with text only. */
const v10Drafts: LegacyComposerDraftRow[] = [
  {
    sessionId: v1Session,
    text: "what do these say?",
    attachments: [
      { type: "text_file", name: "pasted-text.txt", mimeType: "text/plain", text: "00000 INFO ok\n".repeat(50) },
      { type: "image", blobId, mimeType: "image/png" },
    ],
    updatedAt: 9,
  },
  { sessionId: v10NewChat, text: "typed on the new-chat screen", updatedAt: 10 },
];
