/**
 * Rows ↔ records across two "devices" (two fake-indexeddb databases), without a server: what one
 * device's outbound scan lists, applied on the other, gives the same rows; mutable records resolve
 * last-writer-wins; a deletion is final.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { asEntryId, type SessionId } from "../../core/session/ids";
import { encodeHlc, HybridClock } from "../../core/sync/hlc";
import { appendEntries } from "../entries";
import { setLabel } from "../labels";
import { closeDb, getDb, setTestDatabase } from "../schema";
import { createSession, deleteSession, renameSession, setAutoTitle, updateSession } from "../sessions";
import { makeSession, userMessage } from "../testing/database";
import { applyIncoming, type Incoming } from "./inbound";
import { entryOutgoing, markSent, type Outgoing, pendingOutbound, readBlobRecords, readEntries } from "./outbound";

let n = 0;
const device = (name: string) => `grove-exchange-${name}-${++n}`;

/** Everything device `from` would send now, as records applied on device `to`; marks them sent on `from`. */
async function exchange(from: string, to: string, clock: HybridClock): Promise<ReturnType<typeof applyIncoming>> {
  return deliver(to, await collect(from, clock));
}

/** What `from`'s outbound scan stamps and sends now (marked sent there). */
async function collect(from: string, clock: HybridClock): Promise<Outgoing[]> {
  setTestDatabase(from);
  const out = await pendingOutbound(() => clock.next());
  const items: Outgoing[] = [
    ...(await readEntries(out.entryIds)).map(entryOutgoing),
    ...(await readBlobRecords(out.blobIds)),
    ...out.other,
  ];
  await markSent(
    items.map((i) => ({
      ref: i.ref,
      docId: `doc-${i.ref}`,
      ...(i.sessionId ? { sessionId: i.sessionId } : {}),
      ...("hlc" in i.record ? { hlc: i.record.hlc } : {}),
      ...(i.digest ? { digest: i.digest } : {}),
      rev: "1-x",
    })),
  );
  return items;
}

async function deliver(to: string, items: readonly Outgoing[]): Promise<ReturnType<typeof applyIncoming>> {
  setTestDatabase(to);
  return applyIncoming(items.map((i): Incoming => ({ docId: `doc-${i.ref}`, rev: "1-x", record: i.record })));
}

async function rows(name: string) {
  setTestDatabase(name);
  const db = getDb();
  const sorted = (xs: unknown[]) => xs.map((x) => JSON.stringify(x, Object.keys(x as object).sort())).sort();
  return {
    sessions: sorted(await db.sessions.toArray()),
    entries: sorted(await db.entries.toArray()),
    labels: sorted(await db.labels.toArray()),
  };
}

let a: string;
let b: string;
beforeEach(() => {
  a = device("a");
  b = device("b");
});
afterEach(closeDb);

describe("exchanging records between two devices", () => {
  it("a session with entries and a label arrives identical, and nothing is sent back", async () => {
    setTestDatabase(a);
    const s = makeSession({ title: "Trip", titleSource: "user" });
    const root = userMessage(s.id, null, "hello");
    await createSession({ ...s, leafId: root.id }, [root]);
    const reply = userMessage(s.id, root.id, "second");
    await appendEntries(s.id, [reply], { kind: "move", to: reply.id });
    await setLabel(root.id, "start");

    const outcome = await exchange(a, b, new HybridClock("A"));
    expect(outcome).toMatchObject({ deferred: [], entriesAdded: 2 });
    expect(await rows(b)).toEqual(await rows(a));

    setTestDatabase(b);
    const back = await pendingOutbound(() => "never");
    expect(back).toEqual({ entryIds: [], blobIds: [], other: [], purge: [] });
  });

  it("a generated title (set after the chat was sent) travels like any title, still automatic", async () => {
    setTestDatabase(a);
    const s = makeSession({ title: "Hi! Can you help me…", titleSource: "auto" });
    await createSession(s);
    const clock = new HybridClock("A");
    await exchange(a, b, clock);
    setTestDatabase(a);
    expect(await setAutoTitle(s.id, "Trip planning help")).toBe(true);
    await exchange(a, b, clock);
    setTestDatabase(b);
    expect(await getDb().sessions.get(s.id)).toMatchObject({ title: "Trip planning help", titleSource: "auto" });
  });

  it("pinned, archived, the chat's parameters and pi's header arrive, and a later change of one replaces only it", async () => {
    setTestDatabase(a);
    const s = makeSession({ title: "Kept", pinned: true, archived: true, piHeader: { cwd: "/home/me" } });
    await createSession(s);
    await updateSession(s.id, { params: { temperature: 0.3 } });
    const clock = new HybridClock("A");
    await exchange(a, b, clock);
    expect(await rows(b)).toEqual(await rows(a));
    setTestDatabase(b);
    expect(await getDb().sessions.get(s.id)).toMatchObject({
      pinned: true,
      archived: true,
      params: { temperature: 0.3 },
    });

    // Unpinned on A: B's row follows, keeping everything else.
    setTestDatabase(a);
    await getDb().sessions.update(s.id, { pinned: undefined });
    await exchange(a, b, clock);
    setTestDatabase(b);
    const there = await getDb().sessions.get(s.id);
    expect(there?.pinned).toBeUndefined();
    expect(there).toMatchObject({ archived: true, params: { temperature: 0.3 }, piHeader: { cwd: "/home/me" } });
  });

  it("a leaf whose entry has not arrived is deferred, not applied", async () => {
    setTestDatabase(a);
    const s = makeSession();
    const root = userMessage(s.id, null, "hello");
    await createSession({ ...s, leafId: root.id }, [root]);
    setTestDatabase(a);
    const out = await pendingOutbound(() => encodeHlc({ wall: 1, counter: 0, node: "A" }));
    const leaf = out.other.find((o) => o.record.kind === "leaf")!;
    const meta = out.other.find((o) => o.record.kind === "session")!;
    setTestDatabase(b);
    const outcome = await applyIncoming([
      { docId: "m", rev: "1", record: meta.record },
      { docId: "l", rev: "1", record: leaf.record },
    ]);
    expect(outcome.deferred).toEqual(["l"]);
    expect((await getDb().sessions.get(s.id))?.leafId).toBeNull();
  });

  it("concurrent renames: the later stamp wins on both devices", async () => {
    setTestDatabase(a);
    const s = makeSession({ title: "Original" });
    await createSession(s);
    const clockA = new HybridClock("A", () => 1_000);
    const clockB = new HybridClock("B", () => 2_000);
    await exchange(a, b, clockA);

    setTestDatabase(a);
    await renameSession(s.id, "Renamed on A");
    setTestDatabase(b);
    await renameSession(s.id, "Renamed on B");
    // Both stamp their edit, then each receives the other's: B's stamp (wall 2000) is later than A's (1000).
    const fromA = await collect(a, clockA);
    const fromB = await collect(b, clockB);
    await deliver(b, fromA);
    await deliver(a, fromB);
    for (const d of [a, b]) {
      setTestDatabase(d);
      expect((await getDb().sessions.get(s.id))?.title).toBe("Renamed on B");
    }
  });

  it("an edit made here and not yet sent is not overwritten by an older-looking arrival", async () => {
    setTestDatabase(a);
    const s = makeSession({ title: "Original" });
    await createSession(s);
    const clockA = new HybridClock("A", () => 1_000);
    await exchange(a, b, clockA);
    setTestDatabase(a);
    await renameSession(s.id, "Renamed on A");
    setTestDatabase(b);
    await renameSession(s.id, "Renamed on B, just now");
    await exchange(a, b, clockA);
    setTestDatabase(b);
    expect((await getDb().sessions.get(s.id))?.title).toBe("Renamed on B, just now");
  });

  it("a deleted session is deleted on the other device, and records of it arriving later are ignored", async () => {
    setTestDatabase(a);
    const s = makeSession();
    const root = userMessage(s.id, null, "hello");
    await createSession({ ...s, leafId: root.id }, [root]);
    const clock = new HybridClock("A");
    await exchange(a, b, clock);

    setTestDatabase(a);
    await deleteSession(s.id);
    const out = await pendingOutbound(() => clock.next());
    expect(out.other.map((o) => o.record)).toEqual([
      expect.objectContaining({ kind: "session", id: s.id, final: true, session: null }),
    ]);
    // Every other record of the session is to be deleted on the server.
    expect(out.purge.map((p) => p.ref).sort()).toEqual([`e:${root.id}`, `f:${s.id}`].sort());
    setTestDatabase(b);
    await applyIncoming(out.other.map((o) => ({ docId: `doc-${o.ref}`, rev: "2-x", record: o.record })));
    expect(await getDb().sessions.get(s.id)).toBeUndefined();
    expect(await getDb().entries.where("sessionId").equals(s.id).count()).toBe(0);

    // A late entry of the deleted session (another device wrote it offline) does not resurrect it.
    const late = userMessage(s.id as SessionId, root.id, "late");
    await applyIncoming([{ docId: "late", rev: "1", record: { kind: "entry", entry: late } }]);
    expect(await getDb().entries.get(late.id)).toBeUndefined();
  });

  it("a concurrent leaf that loses is reported (its branch stays in the tree)", async () => {
    setTestDatabase(a);
    const s = makeSession();
    const root = userMessage(s.id, null, "hello");
    await createSession({ ...s, leafId: root.id }, [root]);
    const clock = new HybridClock("A", () => 1_000);
    await exchange(a, b, clock);
    const onA = userMessage(s.id, root.id, "on A");
    const onB = userMessage(s.id, root.id, "on B");
    setTestDatabase(b);
    await getDb().entries.add(onA);
    await getDb().entries.add(onB);
    const outcome = await applyIncoming([
      {
        docId: "leaf",
        rev: "3-x",
        record: { kind: "leaf", id: s.id, hlc: clock.next(), leafId: onA.id, updatedAt: 5 },
        losingLeafIds: [onB.id],
      },
    ]);
    expect(outcome.leafConflicts).toEqual([s.id]);
    expect((await getDb().sessions.get(s.id))?.leafId).toBe(onA.id);
    expect(await getDb().entries.get(asEntryId(onB.id))).toBeDefined();
  });

  it("a leaf from another branch that arrives before this device's own move went out: this device keeps its branch and is told", async () => {
    setTestDatabase(a);
    const s = makeSession();
    const root = userMessage(s.id, null, "hello");
    await createSession({ ...s, leafId: root.id }, [root]);
    const clock = new HybridClock("A", () => 1_000);
    await exchange(a, b, clock);
    const onA = userMessage(s.id, root.id, "on A");
    setTestDatabase(b);
    // B sent offline: its own message is the leaf here, not yet stamped for the server.
    const onB = userMessage(s.id, root.id, "on B");
    await appendEntries(s.id as SessionId, [onB], { kind: "move", to: onB.id });
    await getDb().entries.add(onA);
    const record = { kind: "leaf", id: s.id, hlc: clock.next(), leafId: onA.id, updatedAt: 5 } as const;
    const outcome = await applyIncoming([{ docId: "leaf", rev: "3-x", record }]);
    expect(outcome.leafConflicts).toEqual([s.id]);
    expect((await getDb().sessions.get(s.id))?.leafId).toBe(onB.id);

    // The same device's leaf moved further along its own branch: nothing to tell.
    const later = userMessage(s.id, onB.id, "more on B");
    await appendEntries(s.id as SessionId, [later], { kind: "move", to: later.id });
    // (B's own earlier leaf, as another device relays it: on B's path.)
    const along = { kind: "leaf", id: s.id, hlc: clock.next(), leafId: onB.id, updatedAt: 6 } as const;
    expect((await applyIncoming([{ docId: "leaf", rev: "4-x", record: along }])).leafConflicts).toEqual([]);
  });
});
