import "fake-indexeddb/auto";
import { Dexie } from "dexie";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionId } from "../core/session/ids";
import { getComposerDraft, getComposerDraftAttachments } from "./composer-drafts";
import { CURRENT_SCHEMA_VERSION, closeDb, getDb, SCHEMA_VERSIONS, setTestDatabase } from "./schema";
import {
  currentRows,
  fromV0,
  fromV1,
  fromV2,
  fromV3,
  fromV4,
  fromV7,
  fromV9,
  fromV10,
  fromV11,
  type Rows,
  type SchemaFixture,
  SHIPPED_STORES,
  writeFixture,
} from "./testing/schema-fixtures";
import { onVersionChange } from "./version-change";

let n = 0;
const uniqueName = (what: string) => `grove-schema-test-${what}-${++n}`;

afterEach(closeDb);

async function tableContents(): Promise<Record<string, unknown[]>> {
  const db = getDb();
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) out[table.name] = await table.toArray();
  return out;
}

function merged(a: Rows, b: Rows): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const table of getDb().tables.map((t) => t.name)) out[table] = [...(a[table] ?? []), ...(b[table] ?? [])];
  return out;
}

const byJson = (rows: unknown[]) => [...rows].map((r) => JSON.stringify(r)).sort();

function expectSameRows(actual: Record<string, unknown[]>, expected: Record<string, unknown[]>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [table, rows] of Object.entries(expected))
    expect(byJson(actual[table] ?? []), table).toEqual(byJson(rows));
}

/**
 * Opens a database written at `fixture.fromVersion` with the current schema: it upgrades, every
 * fixture row is there as `expected`, and rows written now survive a close and reopen.
 */
async function expectUpgradeKeepsEveryRow(fixture: SchemaFixture) {
  const name = uniqueName(`from-v${fixture.fromVersion}`);
  await writeFixture(name, fixture);

  setTestDatabase(name);
  await getDb().open();
  expect(getDb().verno).toBe(CURRENT_SCHEMA_VERSION);
  expectSameRows(await tableContents(), merged(fixture.expected, {}));

  const db = getDb();
  await db.transaction("rw", db.tables, async () => {
    for (const [table, rows] of Object.entries(currentRows)) await db.table(table).bulkAdd([...rows]);
  });
  closeDb();
  setTestDatabase(name);
  expectSameRows(await tableContents(), merged(fixture.expected, currentRows));
  const blob = (await getDb().blobs.toArray())[0]?.data;
  expect(await blob?.text()).toBe("png");
}

describe("schema versions", () => {
  it("are declared oldest first, starting at 1 and increasing (gaps allowed: versions are reserved per feature)", () => {
    const versions = SCHEMA_VERSIONS.map((v) => v.version);
    expect(versions[0]).toBe(1);
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
    expect(CURRENT_SCHEMA_VERSION).toBe(versions[versions.length - 1]);
  });

  it("shipped versions are never edited: each matches the stores frozen when it shipped", () => {
    for (const v of SCHEMA_VERSIONS) expect(v.stores, `v${v.version}`).toEqual(SHIPPED_STORES[v.version]);
  });

  it("v1 opens a v0 (empty) database, and rows written survive a close/reopen", async () => {
    await expectUpgradeKeepsEveryRow(fromV0);
  });

  it("v2 opens a v1 database, keeps every row and adds the empty queued table", async () => {
    await expectUpgradeKeepsEveryRow(fromV1);
  });

  it("v3 opens a v2 database, keeps every row (queued messages too) and adds the empty composerDrafts table", async () => {
    await expectUpgradeKeepsEveryRow(fromV2);
  });

  it("v4 opens a v3 database, keeps every row and drops the never-queried [sessionId+parentId] index", async () => {
    await expectUpgradeKeepsEveryRow(fromV3);
    // Gone from IndexedDB itself, not just from Dexie's view of it.
    const store = getDb().backendDB().transaction("entries", "readonly").objectStore("entries");
    expect([...store.indexNames]).not.toContain("[sessionId+parentId]");
    expect(getDb().entries.schema.indexes.map((i) => i.name)).not.toContain("[sessionId+parentId]");
  });

  it("v6 and v7 open a v4 database, keeps every row and add the empty searchIndex and sync tables", async () => {
    await expectUpgradeKeepsEveryRow(fromV4);
    expect(await getDb().searchIndex.count()).toBe(0);
    expect(getDb().syncState.schema.indexes.map((i) => i.name)).toEqual(["docId", "sessionId"]);
  });

  it("v9 opens a v7 database, keeps every row but the search index saved whole (rebuilt in segments)", async () => {
    await expectUpgradeKeepsEveryRow(fromV7);
    expect(await getDb().searchIndex.count()).toBe(0);
    expect(await getDb().syncMeta.count()).toBe(2);
  });

  it("v10 opens a v9 database, keeps every row and indexes the entries by [sessionId+id], in id order", async () => {
    await expectUpgradeKeepsEveryRow(fromV9);
    const store = getDb().backendDB().transaction("entries", "readonly").objectStore("entries");
    expect([...store.indexNames].sort()).toEqual(["[sessionId+id]", "sessionId"]);
    // Built from the rows that were there before the upgrade, not only from rows written since.
    const sessionId = fromV9.rows.entries!.map((e) => (e as { sessionId: string }).sessionId)[0]!;
    const viaIndex = await getDb()
      .entries.where("[sessionId+id]")
      .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
      .primaryKeys();
    const fromRows = fromV9.rows.entries!.map((e) => (e as { id: string }).id).sort();
    expect(viaIndex).toEqual(fromRows);
  });
});

describe("v11: composer attachments in rows of their own", () => {
  it("v11 opens a v10 database, keeps every row and moves each draft's inline attachments to rows, in order", async () => {
    await expectUpgradeKeepsEveryRow(fromV10);
    const [withFiles] = fromV10.rows.composerDrafts as { sessionId: SessionId; attachments: unknown[] }[];
    expect(await getComposerDraftAttachments(withFiles!.sessionId)).toEqual(withFiles!.attachments);
    expect(await getComposerDraft(withFiles!.sessionId)).toBe("what do these say?");
    expect(await getComposerDraft("new-chat" as SessionId)).toBe("typed on the new-chat screen");
  });
});

describe("v12: memory checks' costs", () => {
  it("v12 opens a v11 database, keeps every row and adds the empty memoryCheckCosts table, indexed by chat and time", async () => {
    await expectUpgradeKeepsEveryRow(fromV11);
    const store = getDb().backendDB().transaction("memoryCheckCosts", "readonly").objectStore("memoryCheckCosts");
    expect([...store.indexNames].sort()).toEqual(["createdAt", "sessionId"]);
  });
});

describe("versionchange", () => {
  it("another tab upgrading closes this connection for good and notifies the app", async () => {
    const name = uniqueName("versionchange");
    setTestDatabase(name);
    await getDb().open();
    const seen: Array<number | null> = [];
    const dispose = onVersionChange((info) => seen.push(info.newVersion));
    const ignored: Array<number | null> = [];
    onVersionChange((info) => ignored.push(info.newVersion))();

    // The "newer tab": a raw open at the next version. It is not blocked, because we close.
    const nextNative = (CURRENT_SCHEMA_VERSION + 1) * 10;
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open(name, nextNative);
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error("blocked: the old connection did not close"));
    });
    await new Promise((r) => setTimeout(r, 0));

    expect(seen).toEqual([CURRENT_SCHEMA_VERSION + 1]);
    expect(ignored).toEqual([]);
    expect(getDb().isOpen()).toBe(false);
    await expect(getDb().sessions.toArray()).rejects.toBeInstanceOf(Dexie.DatabaseClosedError);
    dispose();
  });
});
