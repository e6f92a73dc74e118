/**
 * Records that are well-formed but do not fit what is here (issue 24 items 5 and 6): written by a
 * broken or hostile client holding the key, they are refused one by one and counted; the rest of
 * their batch is applied.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { encodeHlc } from "../../core/sync/hlc";
import type { SyncRecord } from "../../core/sync/records";
import { setLabel } from "../labels";
import { createSession } from "../sessions";
import { closeDb, freshDatabase, getDb, makeSession, userMessage } from "../testing/database";
import { applyIncoming, type Incoming } from "./inbound";

const stamp = (wall: number) => encodeHlc({ wall, counter: 0, node: "other" });
const item = (docId: string, record: SyncRecord): Incoming => ({ docId, rev: "1-x", record });

/** Chat one (root → reply) and chat two (its own root, the leaf), both here. */
async function twoChats() {
  const one = makeSession({ title: "Chat one", titleSource: "user" });
  const oneRoot = userMessage(one.id, null, "one: root");
  const oneReply = userMessage(one.id, oneRoot.id, "one: reply");
  await createSession({ ...one, leafId: oneReply.id }, [oneRoot, oneReply]);
  const two = makeSession({ title: "Chat two", titleSource: "user" });
  const twoRoot = userMessage(two.id, null, "two: root");
  await createSession({ ...two, leafId: twoRoot.id }, [twoRoot]);
  return { one, oneRoot, oneReply, two, twoRoot };
}

beforeEach(freshDatabase);
afterEach(closeDb);

describe("records that do not fit what is here", () => {
  it("a leaf never moves onto an entry of another chat", async () => {
    const { oneReply, two, twoRoot } = await twoChats();
    const outcome = await applyIncoming([
      item("leaf-two", { kind: "leaf", id: two.id, hlc: stamp(9e12), leafId: oneReply.id, updatedAt: 5 }),
    ]);
    expect(outcome.invalid).toEqual(["leaf-two"]);
    expect(outcome.deferred).toEqual([]);
    expect((await getDb().sessions.get(two.id))?.leafId).toBe(twoRoot.id);
  });

  it("an entry whose parent is an entry of another chat is refused", async () => {
    const { oneReply, two } = await twoChats();
    const intruder = userMessage(two.id, oneReply.id, "grafted onto chat one");
    const outcome = await applyIncoming([item("intruder", { kind: "entry", entry: intruder })]);
    expect(outcome.invalid).toEqual(["intruder"]);
    expect(await getDb().entries.get(intruder.id)).toBeUndefined();
  });

  it("a label naming another chat than its entry's is refused; one for an entry not here yet waits", async () => {
    const { one, oneRoot, two } = await twoChats();
    await setLabel(oneRoot.id, "Start");
    const outcome = await applyIncoming([
      item("label", { kind: "label", id: oneRoot.id, hlc: stamp(9e12), sessionId: two.id, text: "HIJACKED" }),
      item("early", { kind: "label", id: "not-here-yet" as EntryId, hlc: stamp(9e12), sessionId: one.id, text: "x" }),
    ]);
    expect(outcome.invalid).toEqual(["label"]);
    expect(outcome.deferred).toEqual(["early"]);
    expect(await getDb().labels.get(oneRoot.id)).toMatchObject({ sessionId: one.id, text: "Start" });
  });

  it("an older settings version served again does not roll the title back", async () => {
    const { one } = await twoChats();
    const meta = { id: one.id, titleSource: "user" as const, createdAt: one.createdAt };
    await applyIncoming([
      item("meta", { kind: "session", id: one.id, hlc: stamp(2_000), session: { ...meta, title: "Newer" } }),
    ]);
    const outcome = await applyIncoming([
      item("meta", { kind: "session", id: one.id, hlc: stamp(1_000), session: { ...meta, title: "Older" } }),
    ]);
    expect((await getDb().sessions.get(one.id))?.title).toBe("Newer");
    expect(outcome.invalid).toEqual([]);
  });

  it("one record that breaks the write does not stop its batch: the good entry beside it is applied", async () => {
    const { two, twoRoot } = await twoChats();
    const good = userMessage(two.id, twoRoot.id, "a good reply");
    // What no check caught before it reached the database (Dexie: "Invalid argument to Table.get()").
    const broken = { kind: "entry", entry: { ...good, id: undefined } } as unknown as SyncRecord;
    const outcome = await applyIncoming([item("broken", broken), item("good", { kind: "entry", entry: good })]);
    expect(outcome.invalid).toEqual(["broken"]);
    expect(outcome.entriesAdded).toBe(1);
    expect(await getDb().entries.get(good.id)).toMatchObject({ sessionId: two.id });
    expect(await getDb().syncState.get(`e:${good.id}`)).toMatchObject({ docId: "good" });
  });

  it("an entry id already here for another chat is not replaced", async () => {
    const { oneReply, two } = await twoChats();
    const claim: Entry = { ...userMessage(two.id as SessionId, null, "HIJACKED"), id: oneReply.id };
    const outcome = await applyIncoming([item("claim", { kind: "entry", entry: claim })]);
    expect(outcome.invalid).toEqual(["claim"]);
    expect(await getDb().entries.get(oneReply.id)).toEqual(oneReply);
  });
});
