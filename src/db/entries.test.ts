import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isQuotaError } from "../core/quota-error";
import { type EntryId, newEntryId, newSessionId } from "../core/session/ids";
import {
  appendEntries,
  getEntries,
  getEntriesInChunks,
  getEntry,
  getSessionPath,
  getSessionWithEntries,
  moveLeaf,
} from "./entries";
import {
  AppendOnlyError,
  DanglingParentError,
  EntryNotInSessionError,
  SessionNotFoundError,
  StaleLeafError,
} from "./errors";
import { createSession, getSession } from "./sessions";
import {
  assistantMessage,
  closeDb,
  freshDatabase,
  getDb,
  makeSession,
  snapshot,
  userMessage,
} from "./testing/database";

beforeEach(freshDatabase);
afterEach(closeDb);

async function sessionWithOneTurn() {
  const session = makeSession();
  const u = userMessage(session.id, null, "hello");
  const a = assistantMessage(session.id, u.id, "hi there");
  await createSession({ ...session, leafId: a.id }, [u, a]);
  return { session, u, a };
}

describe("appendEntries", () => {
  it("adds the entries and moves the leaf in the same transaction, bumping updatedAt", async () => {
    const { session, a } = await sessionWithOneTurn();
    const u2 = userMessage(session.id, a.id, "more");
    const a2 = assistantMessage(session.id, u2.id, "sure");

    const result = await appendEntries(session.id, [u2, a2], { kind: "move", to: a2.id }, 9_000);

    expect(result).toEqual({ leafMoved: true });
    expect((await getSession(session.id))?.leafId).toBe(a2.id);
    expect((await getSession(session.id))?.updatedAt).toBe(9_000);
    expect(await getEntry(a2.id)).toEqual(a2);
    expect((await getEntries(session.id)).map((e) => e.id)).toHaveLength(4);
  });

  it("keep leaves the leaf where it was", async () => {
    const { session, a } = await sessionWithOneTurn();
    const u2 = userMessage(session.id, a.id, "aside");
    expect(await appendEntries(session.id, [u2], { kind: "keep" })).toEqual({ leafMoved: false });
    expect((await getSession(session.id))?.leafId).toBe(a.id);
    expect(await getEntry(u2.id)).toEqual(u2);
  });

  it("accepts a new root (parentId null), e.g. editing the first message", async () => {
    const { session } = await sessionWithOneTurn();
    const root2 = userMessage(session.id, null, "edited first message");
    await appendEntries(session.id, [root2], { kind: "move", to: root2.id });
    expect((await getSession(session.id))?.leafId).toBe(root2.id);
  });

  it("rejects a leaf target outside the session, and then the entries are not written either", async () => {
    const { session, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const u2 = userMessage(session.id, a.id, "more");
    await expect(appendEntries(session.id, [u2], { kind: "move", to: newEntryId() })).rejects.toBeInstanceOf(
      EntryNotInSessionError,
    );
    expect(await snapshot()).toEqual(before);
  });
});

describe("a failing append leaves the database exactly as before", () => {
  it("dangling parent: no entry written, leaf unchanged", async () => {
    const { session, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const ok = userMessage(session.id, a.id, "fine");
    const dangling = assistantMessage(session.id, newEntryId(), "orphan");

    await expect(appendEntries(session.id, [ok, dangling], { kind: "move", to: dangling.id })).rejects.toBeInstanceOf(
      DanglingParentError,
    );
    expect(await snapshot()).toEqual(before);
  });

  it("a parent that comes later in the batch is dangling", async () => {
    const { session, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const u = userMessage(session.id, a.id, "q");
    const reply = assistantMessage(session.id, u.id, "r");
    await expect(appendEntries(session.id, [reply, u], { kind: "keep" })).rejects.toBeInstanceOf(DanglingParentError);
    expect(await snapshot()).toEqual(before);
  });

  it("a parent in another session is dangling", async () => {
    const { session } = await sessionWithOneTurn();
    const other = await sessionWithOneTurn();
    const before = await snapshot();
    const u = userMessage(session.id, other.a.id, "cross-session");
    await expect(appendEntries(session.id, [u], { kind: "keep" })).rejects.toBeInstanceOf(DanglingParentError);
    expect(await snapshot()).toEqual(before);
  });

  it("duplicate id (already in the database): AppendOnlyError, the stored entry is untouched", async () => {
    const { session, u, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const rewrite = { ...a, content: [{ type: "text" as const, text: "rewritten history" }] };
    const fresh = userMessage(session.id, u.id, "new");

    const err = await appendEntries(session.id, [fresh, rewrite], { kind: "move", to: fresh.id }).catch((e) => e);
    expect(err).toBeInstanceOf(AppendOnlyError);
    expect((err as AppendOnlyError).entryId).toBe(a.id);
    expect(await snapshot()).toEqual(before);
  });

  it("duplicate id within the batch: AppendOnlyError", async () => {
    const { session, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const u = userMessage(session.id, a.id, "twice");
    await expect(appendEntries(session.id, [u, u], { kind: "keep" })).rejects.toBeInstanceOf(AppendOnlyError);
    expect(await snapshot()).toEqual(before);
  });

  it("an entry of another session: EntryNotInSessionError", async () => {
    const { session, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const stray = userMessage(newSessionId(), a.id, "wrong session");
    await expect(appendEntries(session.id, [stray], { kind: "keep" })).rejects.toBeInstanceOf(EntryNotInSessionError);
    expect(await snapshot()).toEqual(before);
  });

  it("unknown session: SessionNotFoundError", async () => {
    const sessionId = newSessionId();
    const before = await snapshot();
    await expect(
      appendEntries(sessionId, [userMessage(sessionId, null, "x")], { kind: "move", to: null }),
    ).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await snapshot()).toEqual(before);
  });

  it("quota exceeded while writing the second entry: nothing written, the error is recognizable", async () => {
    const { session, a } = await sessionWithOneTurn();
    const before = await snapshot();
    const u = userMessage(session.id, a.id, "big paste");
    const reply = assistantMessage(session.id, u.id, "long answer");
    getDb().entries.hook("creating", (_key, entry) => {
      if (entry.id === reply.id) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });

    const err: unknown = await appendEntries(session.id, [u, reply], { kind: "move", to: reply.id }).catch((e) => e);
    expect(isQuotaError(err)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });
});

describe("move-if-leaf-is", () => {
  it("moves when the leaf is still the expected one", async () => {
    const { session, a } = await sessionWithOneTurn();
    const u2 = userMessage(session.id, a.id, "next");
    const res = await appendEntries(session.id, [u2], { kind: "move-if-leaf-is", expected: a.id, to: u2.id });
    expect(res.leafMoved).toBe(true);
    expect((await getSession(session.id))?.leafId).toBe(u2.id);
  });

  it("two tabs answer the same leaf: the second append keeps the leaf, both messages become siblings", async () => {
    const { session, a } = await sessionWithOneTurn();
    const fromTab1 = userMessage(session.id, a.id, "tab 1 asks");
    const fromTab2 = userMessage(session.id, a.id, "tab 2 asks");

    const r1 = await appendEntries(session.id, [fromTab1], {
      kind: "move-if-leaf-is",
      expected: a.id,
      to: fromTab1.id,
    });
    const r2 = await appendEntries(session.id, [fromTab2], {
      kind: "move-if-leaf-is",
      expected: a.id,
      to: fromTab2.id,
    });

    expect(r1.leafMoved).toBe(true);
    expect(r2.leafMoved).toBe(false);
    expect((await getSession(session.id))?.leafId).toBe(fromTab1.id);
    const children = (await getEntries(session.id)).filter((e) => e.parentId === a.id).map((e) => e.id);
    expect(children.sort()).toEqual([fromTab1.id, fromTab2.id].sort());
  });
});

describe("moveLeaf", () => {
  it("moves to an entry of the session, or to null", async () => {
    const { session, u } = await sessionWithOneTurn();
    await moveLeaf(session.id, u.id);
    expect((await getSession(session.id))?.leafId).toBe(u.id);
    await moveLeaf(session.id, null);
    expect((await getSession(session.id))?.leafId).toBeNull();
  });

  it("refuses an entry of another session and changes nothing", async () => {
    const { session } = await sessionWithOneTurn();
    const other = await sessionWithOneTurn();
    const before = await snapshot();
    await expect(moveLeaf(session.id, other.a.id)).rejects.toBeInstanceOf(EntryNotInSessionError);
    await expect(moveLeaf(session.id, "nope" as EntryId)).rejects.toBeInstanceOf(EntryNotInSessionError);
    await expect(moveLeaf(newSessionId(), null)).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await snapshot()).toEqual(before);
  });

  it("with ifLeafIs, moves only while the leaf is still that entry", async () => {
    const { session, u, a } = await sessionWithOneTurn();
    await moveLeaf(session.id, a.id);
    const before = await snapshot();
    await expect(moveLeaf(session.id, null, u.id)).rejects.toBeInstanceOf(StaleLeafError);
    expect(await snapshot()).toEqual(before);
    await moveLeaf(session.id, u.id, a.id);
    expect((await getSession(session.id))?.leafId).toBe(u.id);
  });
});

describe("getEntries", () => {
  it("returns only the session's entries, in creation order", async () => {
    const one = await sessionWithOneTurn();
    await sessionWithOneTurn();
    expect((await getEntries(one.session.id)).map((e) => e.id)).toEqual([one.u.id, one.a.id]);
    expect(await getEntries(newSessionId())).toEqual([]);
  });
});

describe("getEntriesInChunks", () => {
  it("reads what getEntries reads, in id order, without other sessions' entries written in between", async () => {
    const a = makeSession({ title: "A" });
    const b = makeSession({ title: "B" });
    await createSession(a, []);
    await createSession(b, []);
    // Interleaved: every other id belongs to the other chat, so every run of A's ids spans B's.
    let aParent: EntryId | null = null;
    let bParent: EntryId | null = null;
    for (let i = 0; i < 23; i++) {
      const ea = userMessage(a.id, aParent, `a${i}`);
      await appendEntries(a.id, [ea], { kind: "move", to: ea.id });
      aParent = ea.id;
      const eb = userMessage(b.id, bParent, `b${i}`);
      await appendEntries(b.id, [eb], { kind: "move", to: eb.id });
      bParent = eb.id;
    }
    for (const chunk of [1, 5, 7, 23, 400]) {
      expect(await getEntriesInChunks(a.id, { chunk })).toEqual(await getEntries(a.id));
      expect(await getEntriesInChunks(b.id, { chunk })).toEqual(await getEntries(b.id));
    }
    expect((await getEntriesInChunks(a.id, { chunk: 5 })).map((e) => e.type === "message" && e.content)).toHaveLength(
      23,
    );
  });

  it("is empty for an unknown session or one with no entries", async () => {
    const s = makeSession();
    await createSession(s, []);
    expect(await getEntriesInChunks(s.id, { chunk: 2 })).toEqual([]);
    expect(await getEntriesInChunks(newSessionId(), { chunk: 2 })).toEqual([]);
  });

  it("waits at `between` before each request after the first (a hold stops the read there), hands over each part", async () => {
    const s = makeSession();
    let parent: EntryId | null = null;
    const entries = Array.from({ length: 5 }, (_, i) => {
      const e = userMessage(s.id, parent, `m${i}`);
      parent = e.id;
      return e;
    });
    await createSession({ ...s, leafId: parent }, entries);
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let waits = 0;
    let done = false;
    const parts: number[] = [];
    const read = getEntriesInChunks(s.id, {
      chunk: 2,
      between: () => {
        waits++;
        return gate;
      },
      onChunk: (part) => parts.push(part.length),
    }).then((all) => {
      done = true;
      return all;
    });
    await vi.waitFor(() => expect(waits).toBe(1));
    expect(done).toBe(false);
    open();
    expect((await read).map((e) => e.id)).toEqual(entries.map((e) => e.id));
    expect(waits).toBe(2); // 3 requests of 2, 2, 1
    expect(parts).toEqual([2, 2, 1]);
  });
});

describe("getSessionPath", () => {
  it("reads the session and the path to its leaf, or to another entry, walking parents only", async () => {
    const { session, u, a } = await sessionWithOneTurn();
    const side = assistantMessage(session.id, u.id, "another version");
    await appendEntries(session.id, [side], { kind: "keep" });
    const read = await getSessionPath(session.id);
    expect(read?.session.leafId).toBe(a.id);
    expect(read?.path.map((e) => e.id)).toEqual([u.id, a.id]);
    expect((await getSessionPath(session.id, side.id))?.path.map((e) => e.id)).toEqual([u.id, side.id]);
    expect((await getSessionPath(session.id, null))?.path).toEqual([]);
    expect(await getSessionPath(newSessionId())).toBeUndefined();
  });

  it("stops walking at an entry whose path is already known (entries are immutable)", async () => {
    const { session, u, a } = await sessionWithOneTurn();
    const u2 = userMessage(session.id, a.id, "more");
    await appendEntries(session.id, [u2], { kind: "move", to: u2.id });
    const asked: string[] = [];
    const read = await getSessionPath(session.id, undefined, (id) => {
      asked.push(id);
      return id === a.id ? [u, a] : undefined;
    });
    expect(read?.path.map((e) => e.id)).toEqual([u.id, a.id, u2.id]);
    expect(asked).toEqual([u2.id, a.id]);
    // A known path of another session is not used.
    const other = await sessionWithOneTurn();
    const mixed = await getSessionPath(session.id, undefined, (id) => (id === a.id ? [other.u] : undefined));
    expect(mixed?.path.map((e) => e.id)).toEqual([u.id, a.id, u2.id]);
  });

  it("refuses a leaf of another session", async () => {
    const one = await sessionWithOneTurn();
    const two = await sessionWithOneTurn();
    await expect(getSessionPath(one.session.id, two.a.id)).rejects.toBeInstanceOf(EntryNotInSessionError);
  });

  it("reads only the path's rows, not the whole tree", async () => {
    const { session, a } = await sessionWithOneTurn();
    const side = Array.from({ length: 50 }, (_, i) => userMessage(session.id, a.id, `side ${i}`));
    await appendEntries(session.id, side, { kind: "keep" });
    const db = getDb();
    let gets = 0;
    // Middleware applies from the next open: count every entries read the verb makes.
    db.close();
    db.use({
      stack: "dbcore",
      name: "count-gets",
      create: (down) => ({
        ...down,
        table: (name) => {
          const t = down.table(name);
          return name === "entries"
            ? {
                ...t,
                get: (req) => {
                  gets += 1;
                  return t.get(req);
                },
                // A bulk or range read counts as a whole-tree read: far more than the path's two.
                getMany: (req) => {
                  gets += 1000;
                  return t.getMany(req);
                },
                query: (req) => {
                  gets += 1000;
                  return t.query(req);
                },
              }
            : t;
        },
      }),
    });
    await db.open();
    await getSessionPath(session.id);
    expect(gets).toBe(2);
  });
});

describe("getSessionWithEntries", () => {
  it("reads the session row and all its entries together", async () => {
    const { session, u, a } = await sessionWithOneTurn();
    const read = await getSessionWithEntries(session.id);
    expect(read.session?.id).toBe(session.id);
    expect(read.entries.map((e) => e.id)).toEqual([u.id, a.id]);
    expect(await getSessionWithEntries(newSessionId())).toEqual({ session: undefined, entries: [] });
  });
});

describe("only-if-leaf-is (maintenance results)", () => {
  it("appends and moves the leaf when the leaf is still the expected one", async () => {
    const session = makeSession();
    const root = userMessage(session.id, null, "hi");
    await createSession({ ...session, leafId: root.id }, [root]);
    const child = userMessage(session.id, root.id, "next");
    await appendEntries(session.id, [child], { kind: "only-if-leaf-is", expected: root.id, to: child.id });
    expect((await getSession(session.id))?.leafId).toBe(child.id);
  });

  it("writes nothing when the leaf moved meanwhile", async () => {
    const session = makeSession();
    const root = userMessage(session.id, null, "hi");
    const moved = userMessage(session.id, root.id, "sent from another tab");
    await createSession({ ...session, leafId: moved.id }, [root, moved]);
    const stale = userMessage(session.id, root.id, "summary computed for root");
    await expect(
      appendEntries(session.id, [stale], { kind: "only-if-leaf-is", expected: root.id, to: stale.id }),
    ).rejects.toBeInstanceOf(StaleLeafError);
    expect(await getEntry(stale.id)).toBeUndefined();
    expect((await getSession(session.id))?.leafId).toBe(moved.id);
  });
});
