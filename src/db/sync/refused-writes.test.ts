/**
 * Writes the server refused (issue 30 item 2), with real PouchDB replication (in memory; the app's
 * own rows in fake-indexeddb): the "server" is a second PouchDB whose `_bulk_docs` answers 403 for chosen
 * documents, as CouchDB's validation does. PouchDB moves its checkpoint past a refused document, so
 * only RefusedWrites can send it again; these tests fail if a refusal is not reported, not kept, or
 * not re-sent.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// pouchdb-browser reads `self` when loaded; Node has none.
vi.hoisted(() => {
  (globalThis as { self?: unknown }).self ??= globalThis;
});

import PouchDB from "pouchdb-browser";
import { closeDb, setTestDatabase } from "../schema";
import { RefusedWrites } from "./refused-writes";
import { getRefused } from "./sync-meta";
import { memoryPouch } from "./testing/memory-pouch";

type BulkDocs = (req: { docs: { _id: string }[] }, opts?: unknown) => Promise<unknown[]>;

let n = 0;
let local: PouchDB;
let server: PouchDB;
/** Ids the server refuses while set. */
let refusing: Set<string>;

/** A server that refuses the documents in `refusing` with CouchDB's 403 and stores the rest. */
function refusingServer(name: string): PouchDB {
  const db = memoryPouch(name);
  const target = db as unknown as { bulkDocs: BulkDocs };
  const store = target.bulkDocs.bind(db);
  target.bulkDocs = async (req, opts) => {
    const accepted = req.docs.filter((d) => !refusing.has(d._id));
    const stored = accepted.length ? await store({ ...req, docs: accepted }, opts) : [];
    const refused = req.docs
      .filter((d) => refusing.has(d._id))
      .map((d) => ({ id: d._id, error: "forbidden", name: "forbidden", reason: "only admins may write here" }));
    return [...stored, ...refused];
  };
  return db;
}

/** A live run's push: one replication that notes what the server denied (sync-run.ts does the same). */
async function push(refused: RefusedWrites): Promise<void> {
  const replication = PouchDB.replicate(local, server);
  replication.on("denied", (denial: unknown) => refused.note(denial));
  await replication;
}

async function onServer(id: string): Promise<boolean> {
  try {
    await server.get(id);
    return true;
  } catch {
    return false;
  }
}

beforeEach(async () => {
  n++;
  setTestDatabase(`grove-refused-${n}`);
  local = memoryPouch(`refused-local-${n}`);
  server = refusingServer(`refused-server-${n}`);
  refusing = new Set(["doc-b"]);
  await local.bulkDocs([
    { _id: "doc-a", body: "a" },
    { _id: "doc-b", body: "b" },
    { _id: "doc-c", body: "c" },
  ]);
});

afterEach(async () => {
  await local.destroy();
  await server.destroy();
  closeDb();
});

describe("writes the server refused", () => {
  it("are reported, never 'Up to date', and kept for the next run", async () => {
    const refused = new RefusedWrites();
    await push(refused);
    expect(refused.count).toBe(1);
    expect(refused.message()).toBe(
      "The server refused 1 change: only admins may write here. Press Sync now to send it again.",
    );
    await refused.save();
    expect(await getRefused()).toEqual(["doc-b"]);
    expect(await onServer("doc-a")).toBe(true);
    expect(await onServer("doc-b")).toBe(false);
  });

  it("are sent again by the next run once the server accepts them (replication alone never would)", async () => {
    const first = new RefusedWrites();
    await push(first);
    await first.save();
    refusing = new Set();

    // The premise: PouchDB's checkpoint is past the refused document, so a plain push skips it.
    const plain = new RefusedWrites();
    await push(plain);
    expect(await onServer("doc-b")).toBe(false);

    const next = new RefusedWrites();
    await next.retry(local, server, () => {});
    expect(await onServer("doc-b")).toBe(true);
    expect(next.message()).toBeUndefined();
    expect(await getRefused()).toEqual([]);
  });

  it("refused again on the retry: reported again and still kept", async () => {
    const first = new RefusedWrites();
    await push(first);
    await first.save();

    const next = new RefusedWrites();
    await next.retry(local, server, () => {});
    expect(next.message()).toMatch(/^The server refused 1 change: only admins may write here\./);
    expect(await getRefused()).toEqual(["doc-b"]);
    expect(await onServer("doc-b")).toBe(false);
  });

  it("a hostile server's reason is cut short and a refusal without an id is still counted", () => {
    const refused = new RefusedWrites();
    refused.note({ id: "doc-x", reason: "x".repeat(10_000) });
    refused.note({ error: "forbidden" });
    expect(refused.count).toBe(2);
    const message = refused.message() ?? "";
    expect(message.startsWith("The server refused 2 changes: ")).toBe(true);
    expect(message.length).toBeLessThan(300);
  });
});
