import "fake-indexeddb/auto";
import { liveQuery } from "dexie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NO_COST } from "../core/cost/cost";
import { asEntryId, type SessionId } from "../core/session/ids";
import { appendEntries } from "./entries";
import { setLabel } from "./labels";
import {
  liveCheckpoints,
  liveEntries,
  liveLabels,
  liveSession,
  liveSessions,
  liveSessionWithEntries,
  liveSettings,
} from "./live";
import { finalizeCheckpoint, saveCheckpoint } from "./reply-checkpoints";
import { createSession, deleteSession } from "./sessions";
import { setSetting } from "./settings";
import { subscribeLive } from "./subscribe";
import { assistantMessage, closeDb, freshDatabase, makeSession, userMessage } from "./testing/database";
import { recordEntryReads } from "./testing/entry-reads";

beforeEach(freshDatabase);
afterEach(closeDb);

/** Subscribes like useLiveQuery does; records every result. */
function watch<T>(querier: () => Promise<T>) {
  const results: T[] = [];
  const errors: unknown[] = [];
  const sub = liveQuery(querier).subscribe({ next: (v) => results.push(v), error: (e) => errors.push(e) });
  return { results, errors, stop: () => sub.unsubscribe() };
}

/** Waits (on state, not time) until `check` passes: live queries deliver asynchronously. */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 5 });

async function sessionWithRoot(title: string) {
  const s = makeSession({ title });
  const u = userMessage(s.id, null, `${title} hello`);
  await createSession({ ...s, leafId: u.id }, [u]);
  return { id: s.id as SessionId, u };
}

describe("live queriers", () => {
  it("a write in session A re-runs A's queries but not session B's", async () => {
    const a = await sessionWithRoot("A");
    const b = await sessionWithRoot("B");
    const bEntries = watch(() => liveEntries(b.id));
    const bLabels = watch(() => liveLabels(b.id));
    const bCheckpoints = watch(() => liveCheckpoints(b.id));
    const bSession = watch(() => liveSession(b.id));
    const aEntries = watch(() => liveEntries(a.id));
    const aCheckpoints = watch(() => liveCheckpoints(a.id));
    await eventually(() =>
      expect([bEntries, bLabels, bCheckpoints, bSession, aEntries, aCheckpoints].map((w) => w.results.length)).toEqual([
        1, 1, 1, 1, 1, 1,
      ]),
    );

    const reply = assistantMessage(a.id, a.u.id, "A reply");
    await appendEntries(a.id, [reply], { kind: "move", to: reply.id });
    await setLabel(a.u.id, "bookmark");
    await saveCheckpoint({
      id: userMessage(a.id, null, "").id,
      sessionId: a.id,
      parentId: reply.id,
      ownerId: "p",
      content: [{ type: "text", text: "streaming" }],
      startedAt: 1,
      updatedAt: 2,
    });
    // A's queries re-ran for the writes (B's would have re-run in the same notification)...
    await eventually(() => {
      expect(aEntries.results.at(-1)).toHaveLength(2);
      expect(aCheckpoints.results.at(-1)).toHaveLength(1);
    });
    // ...and B's did not.
    expect([bEntries, bLabels, bCheckpoints, bSession].map((w) => w.results.length)).toEqual([1, 1, 1, 1]);
    for (const w of [bEntries, bLabels, bCheckpoints, bSession, aEntries, aCheckpoints]) {
      expect(w.errors).toEqual([]);
      w.stop();
    }
  });

  it("the session list and settings follow writes", async () => {
    const sessions = watch(() => liveSessions());
    const settings = watch(() => liveSettings());
    await eventually(() => expect([sessions, settings].map((w) => w.results.length)).toEqual([1, 1]));

    const a = await sessionWithRoot("has a needle");
    await setSetting("theme", "dark");

    await eventually(() => {
      expect(sessions.results.at(-1)?.map((s) => s.id)).toEqual([a.id]);
      expect(settings.results.at(-1)).toEqual({ theme: "dark" });
    });
    for (const w of [sessions, settings]) {
      expect(w.errors).toEqual([]);
      w.stop();
    }
  });
});

describe("subscribeLive", () => {
  it("delivers the current value, then each overlapping write, until unsubscribed", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const stop = subscribeLive(
      liveSettings,
      (v) => seen.push(v),
      (e) => seen.push({ error: e }),
    );
    // A second subscriber that stays: when it has seen a write, the first one would have too.
    const witness: Array<Record<string, unknown>> = [];
    const stopWitness = subscribeLive(
      liveSettings,
      (v) => witness.push(v),
      (e) => witness.push({ error: e }),
    );
    await eventually(() => expect(seen).toEqual([{}]));
    await setSetting("a", 1);
    await eventually(() => expect(seen).toEqual([{}, { a: 1 }]));
    stop();
    await setSetting("b", 2);
    await eventually(() => expect(witness.at(-1)).toEqual({ a: 1, b: 2 }));
    expect(seen).toEqual([{}, { a: 1 }]);
    stopWitness();
  });
});

describe("liveSessionWithEntries", () => {
  it("after the first read, a write re-reads only what is new; with nothing new the same array comes back", async () => {
    // A chat written an hour ago (its ids say when: UUIDv7), then one written now.
    const hourAgo = (Date.now() - 3_600_000).toString(16).padStart(12, "0");
    const oldId = (i: number) =>
      asEntryId(`${hourAgo.slice(0, 8)}-${hourAgo.slice(8, 12)}-7000-8000-${i.toString(16).padStart(12, "0")}`);
    const s = makeSession({ title: "A" });
    const root = { ...userMessage(s.id, null, "A hello"), id: oldId(0) };
    const side = Array.from({ length: 30 }, (_, i) => ({
      ...userMessage(s.id, root.id, `side ${i}`),
      id: oldId(i + 1),
    }));
    await createSession({ ...s, leafId: root.id }, [root, ...side]);
    const a = { id: s.id as SessionId, u: root };
    const b = await sessionWithRoot("B");
    // Rows each entries read returns: the whole tree once, then only the recent ones. Rows, not keys:
    // the first read lists the session's ids before reading them in chunks.
    const reads = await recordEntryReads();
    const rowsRead = () => reads.filter((r) => r.kind === "query" && r.rows > 0).map((r) => r.rows);
    const view = watch(() => liveSessionWithEntries(a.id));
    await eventually(() => expect(view.results).toHaveLength(1));
    expect(view.results[0]?.entries).toHaveLength(31);

    const reply = assistantMessage(a.id, a.u.id, "A reply");
    await appendEntries(a.id, [reply], { kind: "move", to: reply.id });
    await eventually(() => expect(view.results.at(-1)?.session?.leafId).toBe(reply.id));
    const latest = view.results.at(-1);
    expect(latest?.entries.map((e) => e.id)).toContain(reply.id);
    expect(latest?.entries).toHaveLength(32);
    // The index came with the read and was extended by the reply, under its parent.
    expect([...(latest?.index.byId.keys() ?? [])].sort()).toEqual(latest?.entries.map((e) => e.id).sort());
    expect(latest?.index.childrenOf.get(a.u.id)?.map((e) => e.id)).toContain(reply.id);

    const elsewhere = assistantMessage(b.id, b.u.id, "B reply");
    const runs = view.results.length;
    await appendEntries(b.id, [elsewhere], { kind: "move", to: elsewhere.id });
    await eventually(() => expect(view.results.length).toBeGreaterThan(runs));
    expect(view.results.at(-1)?.entries).toBe(latest?.entries);
    view.stop();
    // The first read: all 31; every later one: only the few entries written in the last seconds.
    expect(rowsRead()[0]).toBe(31);
    expect(Math.max(...rowsRead().slice(1))).toBeLessThan(31);
  });

  it("a re-run reads the rows of the entries it does not know only, however many were written just now", async () => {
    // A tool loop's steps: many entries within the recent margin (large results in a real one).
    const s = makeSession({ title: "Loop" });
    const root = userMessage(s.id, null, "Loop hello");
    const steps = Array.from({ length: 20 }, (_, i) => assistantMessage(s.id, root.id, `step ${i}`));
    await createSession({ ...s, leafId: root.id }, [root, ...steps]);
    const reads = await recordEntryReads();
    const rowsRead = () =>
      reads.filter((r) => (r.kind === "query" && r.rows > 0) || r.kind === "getMany").map((r) => r.rows);
    const view = watch(() => liveSessionWithEntries(s.id as SessionId));
    await eventually(() => expect(view.results).toHaveLength(1));
    expect(rowsRead().reduce((a, b) => a + b, 0)).toBe(21);
    const afterFirst = rowsRead().length;

    const reply = assistantMessage(s.id, root.id, "the answer");
    await appendEntries(s.id as SessionId, [reply], { kind: "move", to: reply.id });
    await eventually(() => expect(view.results.at(-1)?.session?.leafId).toBe(reply.id));
    expect(view.results.at(-1)?.entries).toHaveLength(22);
    view.stop();
    // After the first read, each re-run: at most the new reply's row, never the 21 recent ones again.
    expect(rowsRead().length).toBeGreaterThan(afterFirst);
    expect(Math.max(...rowsRead().slice(afterFirst))).toBe(1);
  });

  it("a reply that started long ago (its id is old) and is written now still shows", async () => {
    const a = await sessionWithRoot("A");
    const view = watch(() => liveSessionWithEntries(a.id));
    await eventually(() => expect(view.results).toHaveLength(1));
    const hourAgo = (Date.now() - 3_600_000).toString(16).padStart(12, "0");
    const id = asEntryId(`${hourAgo.slice(0, 8)}-${hourAgo.slice(8, 12)}-7000-8000-00000000abcd`);
    const runs = view.results.length;
    await saveCheckpoint({
      id,
      sessionId: a.id,
      parentId: a.u.id,
      ownerId: "p",
      content: [],
      startedAt: 1,
      updatedAt: 1,
    });
    await eventually(() => expect(view.results.length).toBeGreaterThan(runs)); // the page saw it in flight
    // Written without moving the leaf (the user moved on): only the checkpoint says it was coming.
    await finalizeCheckpoint(id, { ...assistantMessage(a.id, a.u.id, "slow reply"), id }, { kind: "keep" });
    await eventually(() => expect(view.results.at(-1)?.entries.map((e) => e.id)).toContain(id));
    // Older than the entries already read: merged into its place, the entries stay in id order.
    const ids = view.results.at(-1)?.entries.map((e) => e.id) ?? [];
    expect(ids.indexOf(id)).toBe(0);
    expect(ids).toEqual([...ids].sort());
    view.stop();
  });

  it("a deleted session reads as missing, with no entries", async () => {
    const a = await sessionWithRoot("A");
    const view = watch(() => liveSessionWithEntries(a.id));
    await eventually(() => expect(view.results).toHaveLength(1));
    await deleteSession(a.id);
    await eventually(() => expect(view.results.at(-1)).toMatchObject({ session: undefined, entries: [] }));
    expect(view.results.at(-1)?.index.byId.size).toBe(0);
    expect(view.results.at(-1)?.cost).toEqual(NO_COST);
    view.stop();
  });
});
