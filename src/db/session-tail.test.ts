import "fake-indexeddb/auto";
import { liveQuery } from "dexie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Entry } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import { appendEntries, moveLeaf } from "./entries";
import { getSessionTail } from "./session-tail";
import { createSession } from "./sessions";
import { assistantMessage, closeDb, freshDatabase, getDb, makeSession, userMessage } from "./testing/database";
import { recordEntryReads } from "./testing/entry-reads";

beforeEach(freshDatabase);
afterEach(closeDb);

/** A chat whose path alternates user/assistant for `n` entries, with a side branch on the second one. */
async function chat(n: number) {
  const s = makeSession({ title: "long" });
  const path: Entry[] = [];
  for (let i = 0; i < n; i++) {
    const parent = path[i - 1]?.id ?? null;
    path.push(i % 2 === 0 ? userMessage(s.id, parent, `q${i}`) : assistantMessage(s.id, parent, `a${i}`));
  }
  const side = userMessage(s.id, path[0]!.id, "side");
  await createSession({ ...s, leafId: path[n - 1]!.id }, [...path, side]);
  return { id: s.id as SessionId, path, side };
}

/** Counts entries read by key (`gets`) and by range (`ranged`: requests, rows) while `run` runs. */
async function readsDuring<T>(run: () => Promise<T>) {
  const log = await recordEntryReads();
  const result = await run();
  const byKey = log.filter((r) => r.kind === "get" || r.kind === "getMany");
  const byRange = log.filter((r) => r.kind === "query" || r.kind === "cursor");
  const reads = {
    gets: byKey.reduce((n, r) => n + r.rows, 0),
    ranged: byRange.length,
    rangedRows: byRange.reduce((n, r) => n + r.rows, 0),
  };
  return { result, reads };
}

describe("getSessionTail", () => {
  it("reads the last `count` entries of the leaf's path, root side first, by key: `count` rows", async () => {
    const { id, path } = await chat(200);
    const { result, reads } = await readsDuring(() => getSessionTail(id, 30, 0));
    expect(result.path.map((e) => e.id)).toEqual(path.slice(-30).map((e) => e.id));
    expect(result.whole).toBe(false);
    expect(result.session?.leafId).toBe(path.at(-1)?.id);
    expect(reads).toEqual({ gets: 30, ranged: 0, rangedRows: 0 });
  });

  it("with the prefetch, a path's end written last comes from one request of the newest entries", async () => {
    const { id, path } = await chat(200);
    const { result, reads } = await readsDuring(() => getSessionTail(id, 30, 50));
    expect(result.path.map((e) => e.id)).toEqual(path.slice(-30).map((e) => e.id));
    expect(reads.gets).toBe(0);
    expect(reads.rangedRows).toBeLessThanOrEqual(50);
  });

  it("entries missing from the prefetch are read by key", async () => {
    const { id, path } = await chat(200);
    // Only the newest 11 up to the leaf (the last 11 of the path) are prefetched.
    const { result, reads } = await readsDuring(() => getSessionTail(id, 30, 11));
    expect(result.path.map((e) => e.id)).toEqual(path.slice(-30).map((e) => e.id));
    expect(reads.gets).toBe(19);
  });

  it("prefetches up to the leaf: entries of other branches written after it take no room", async () => {
    const { id, path } = await chat(200);
    // 40 newer entries on a branch from the first message, the leaf left where it was.
    let parent = path[0]!.id;
    for (let i = 0; i < 40; i++) {
      const e = userMessage(id, parent, `later ${i}`);
      await appendEntries(id, [e], { kind: "keep" });
      parent = e.id;
    }
    const { result, reads } = await readsDuring(() => getSessionTail(id, 30, 30));
    expect(result.path.map((e) => e.id)).toEqual(path.slice(-30).map((e) => e.id));
    expect(reads.gets).toBe(0);
    expect(reads.rangedRows).toBe(30);
  });

  it("stops as soon as the caller says the entries read fill its screen", async () => {
    const { id, path } = await chat(200);
    const { result, reads } = await readsDuring(() =>
      getSessionTail(id, 30, 0, (newestFirst) => newestFirst.length >= 5),
    );
    expect(result.path.map((e) => e.id)).toEqual(path.slice(-5).map((e) => e.id));
    expect(result.whole).toBe(false);
    expect(reads.gets).toBe(5);
  });

  it("a path shorter than `count` is read whole, from its root", async () => {
    const { id, path } = await chat(5);
    const tail = await getSessionTail(id, 30);
    expect(tail.path.map((e) => e.id)).toEqual(path.map((e) => e.id));
    expect(tail.whole).toBe(true);
  });

  it("follows the leaf, not the newest entries: after a switch to an older branch it reads that branch", async () => {
    const { id, path, side } = await chat(10);
    await moveLeaf(id, side.id);
    const tail = await getSessionTail(id, 30);
    expect(tail.path.map((e) => e.id)).toEqual([path[0]!.id, side.id]);
    expect(tail.whole).toBe(true);
  });

  it("an unknown session reads as missing; a chat with no leaf as an empty, whole path", async () => {
    expect(await getSessionTail("nope" as SessionId)).toEqual({ session: undefined, path: [], whole: true });
    const s = makeSession();
    await createSession(s, []);
    const tail = await getSessionTail(s.id as SessionId);
    expect(tail).toMatchObject({ path: [], whole: true });
  });

  it("a missing ancestor ends the walk: the path is what could be read and is not whole", async () => {
    const { id, path } = await chat(6);
    await getDb().entries.delete(path[2]!.id);
    const tail = await getSessionTail(id, 30);
    expect(tail.path.map((e) => e.id)).toEqual(path.slice(3).map((e) => e.id));
    expect(tail.whole).toBe(false);
  });

  it("as a live query, an append re-runs it and the new leaf is the last entry", async () => {
    const { id, path } = await chat(4);
    const results: Array<Awaited<ReturnType<typeof getSessionTail>>> = [];
    const sub = liveQuery(() => getSessionTail(id, 3)).subscribe({ next: (v) => results.push(v) });
    await vi.waitFor(() => expect(results).toHaveLength(1));
    const reply = userMessage(id, path[3]!.id, "next");
    await appendEntries(id, [reply], { kind: "move", to: reply.id });
    await vi.waitFor(() => expect(results.at(-1)?.path.map((e) => e.id)).toEqual([path[2]!.id, path[3]!.id, reply.id]));
    sub.unsubscribe();
  });
});
