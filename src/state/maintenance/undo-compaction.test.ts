import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EntryId, SessionId } from "../../core/session/ids";
import { appendEntries, getEntries, moveLeaf } from "../../db/entries";
import { createSession, getSession } from "../../db/sessions";
import { assistantMessage, compaction, freshDatabase, makeSession, userMessage } from "../../db/testing/database";
import { useHoldStore } from "../activity/holds";
import { resetStores } from "../app/store-registry";
import { useStreamStore } from "../reply/stream-store";
import { useMaintenanceStore } from "./maintenance-store";
import { redoCompaction, UNDO_PAUSE_MESSAGE, undoCompaction } from "./undo-compaction";

/** u1 → a1 → u2 → a2 → compaction (the leaf). */
async function compactedChat(): Promise<{ sessionId: SessionId; a2: EntryId; compactionId: EntryId }> {
  const session = makeSession({ title: "Compacted" });
  const u1 = userMessage(session.id, null, "hello", 1);
  const a1 = assistantMessage(session.id, u1.id, "hi", 2);
  const u2 = userMessage(session.id, a1.id, "more", 3);
  const a2 = assistantMessage(session.id, u2.id, "sure", 4);
  const c = compaction(session.id, a2.id, "## Goal\nsummary");
  await createSession({ ...session, leafId: c.id }, [u1, a1, u2, a2, c]);
  return { sessionId: session.id, a2: a2.id, compactionId: c.id };
}

beforeEach(() => freshDatabase());
afterEach(() => resetStores());

describe("undoCompaction", () => {
  it("moves the leaf back to the compaction's parent, keeps the entry, and pauses automatic compaction", async () => {
    const { sessionId, a2, compactionId } = await compactedChat();
    const result = await undoCompaction(sessionId, compactionId);
    expect(result).toEqual({ kind: "undone", leafId: a2 });
    expect((await getSession(sessionId))?.leafId).toBe(a2);
    expect((await getEntries(sessionId)).map((e) => e.id)).toContain(compactionId);
    expect(useMaintenanceStore.getState().paused[sessionId]).toBe(UNDO_PAUSE_MESSAGE);
  });

  it("refuses once something was sent after the compaction, even with the leaf moved back onto it", async () => {
    const { sessionId, compactionId } = await compactedChat();
    const u3 = userMessage(sessionId, compactionId, "next", 5);
    await appendEntries(sessionId, [u3], { kind: "keep" });
    expect((await getSession(sessionId))?.leafId).toBe(compactionId);
    expect(await undoCompaction(sessionId, compactionId)).toEqual({ kind: "refused", reason: "not_newest" });
    expect((await getSession(sessionId))?.leafId).toBe(compactionId);
    expect(useMaintenanceStore.getState().paused[sessionId]).toBeUndefined();
  });

  it("refuses when the compaction is not the leaf", async () => {
    const { sessionId, a2, compactionId } = await compactedChat();
    await undoCompaction(sessionId, compactionId);
    useMaintenanceStore.setState({ paused: {} });
    expect(await undoCompaction(sessionId, compactionId)).toEqual({ kind: "refused", reason: "not_newest" });
    expect((await getSession(sessionId))?.leafId).toBe(a2);
    expect(useMaintenanceStore.getState().paused[sessionId]).toBeUndefined();
  });

  it("refuses while a reply or maintenance runs in the chat", async () => {
    const { sessionId, compactionId } = await compactedChat();
    useHoldStore.setState({ busy: { [sessionId]: 1 } });
    expect(await undoCompaction(sessionId, compactionId)).toEqual({ kind: "refused", reason: "busy" });
    useHoldStore.setState({ busy: {} });
    useStreamStore.setState({ replies: { [sessionId]: { parentId: compactionId } as never } });
    expect(await undoCompaction(sessionId, compactionId)).toEqual({ kind: "refused", reason: "busy" });
    expect((await getSession(sessionId))?.leafId).toBe(compactionId);
  });
});

describe("redoCompaction", () => {
  it("puts the leaf back on the undone compaction and lifts the pause Undo set", async () => {
    const { sessionId, compactionId } = await compactedChat();
    await undoCompaction(sessionId, compactionId);
    expect(await redoCompaction(sessionId, compactionId)).toEqual({ kind: "undone", leafId: compactionId });
    expect((await getSession(sessionId))?.leafId).toBe(compactionId);
    expect(useMaintenanceStore.getState().paused[sessionId]).toBeUndefined();
  });

  it("refuses once something was sent after the undo, and keeps the pause", async () => {
    const { sessionId, a2, compactionId } = await compactedChat();
    await undoCompaction(sessionId, compactionId);
    const u3 = userMessage(sessionId, a2, "next", 5);
    await appendEntries(sessionId, [u3], { kind: "keep" });
    await moveLeaf(sessionId, u3.id);
    expect(await redoCompaction(sessionId, compactionId)).toEqual({ kind: "refused", reason: "not_newest" });
    expect((await getSession(sessionId))?.leafId).toBe(u3.id);
    expect(useMaintenanceStore.getState().paused[sessionId]).toBe(UNDO_PAUSE_MESSAGE);
  });
});
