import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageEntry } from "../core/session/entries";
import { newEntryId } from "../core/session/ids";
import { appendEntries, getEntry } from "./entries";
import { AppendOnlyError, DanglingParentError } from "./errors";
import {
  deleteCheckpoint,
  finalizeCheckpoint,
  listCheckpoints,
  recoverOrphanedCheckpoints,
  saveCheckpoint,
} from "./reply-checkpoints";
import type { ReplyCheckpoint } from "./rows";
import { createSession, deleteSession, getSession } from "./sessions";
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

/** A session whose leaf is a user message, with a reply to it streaming into a checkpoint. */
async function streamingReply(ownerId = "page-A") {
  const session = makeSession();
  const u = userMessage(session.id, null, "question");
  await createSession({ ...session, leafId: u.id }, [u]);
  const checkpoint: ReplyCheckpoint = {
    id: newEntryId(),
    sessionId: session.id,
    parentId: u.id,
    ownerId,
    content: [{ type: "text", text: "partial ans" }],
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-test",
    usage: { input: 10, output: 3 },
    startedAt: 5_000,
    updatedAt: 6_000,
  };
  await saveCheckpoint(checkpoint);
  return { session, u, checkpoint };
}

function finished(checkpoint: ReplyCheckpoint): MessageEntry {
  return {
    ...assistantMessage(checkpoint.sessionId, checkpoint.parentId, "partial answer, complete"),
    id: checkpoint.id,
  };
}

describe("saveCheckpoint / deleteCheckpoint", () => {
  it("keeps one row per reply, replaced on each checkpoint", async () => {
    const { checkpoint } = await streamingReply();
    await saveCheckpoint({ ...checkpoint, content: [{ type: "text", text: "partial answer" }], updatedAt: 7_000 });
    expect(await listCheckpoints()).toEqual([
      { ...checkpoint, content: [{ type: "text", text: "partial answer" }], updatedAt: 7_000 },
    ]);
    await deleteCheckpoint(checkpoint.id);
    expect(await listCheckpoints()).toEqual([]);
  });
});

describe("finalizeCheckpoint", () => {
  it("a checkpoint arriving after finalize is refused, so no ghost checkpoint remains", async () => {
    const { checkpoint } = await streamingReply();
    const entry = finished(checkpoint);
    await finalizeCheckpoint(checkpoint.id, entry, { kind: "move", to: entry.id });
    expect(await saveCheckpoint({ ...checkpoint, updatedAt: 99_000 })).toBe(false);
    expect(await listCheckpoints()).toEqual([]);
    expect(await getEntry(entry.id)).toEqual(entry);
  });

  it("appends the entry, deletes the checkpoint and moves the leaf in one transaction", async () => {
    const { session, u, checkpoint } = await streamingReply();
    const entry = finished(checkpoint);
    const res = await finalizeCheckpoint(
      checkpoint.id,
      entry,
      { kind: "move-if-leaf-is", expected: u.id, to: entry.id },
      8_000,
    );
    expect(res.leafMoved).toBe(true);
    expect(await getEntry(entry.id)).toEqual(entry);
    expect(await listCheckpoints()).toEqual([]);
    expect(await getSession(session.id)).toMatchObject({ leafId: entry.id, updatedAt: 8_000 });
  });

  it("is atomic: a failing append keeps the checkpoint and writes nothing", async () => {
    const { u, checkpoint } = await streamingReply();
    const before = await snapshot();
    const dangling: MessageEntry = { ...finished(checkpoint), parentId: newEntryId() };
    await expect(finalizeCheckpoint(checkpoint.id, dangling, { kind: "move", to: dangling.id })).rejects.toBeInstanceOf(
      DanglingParentError,
    );
    expect(await snapshot()).toEqual(before);

    // The reply was already recovered by another tab: its id exists.
    await appendEntries(u.sessionId, [finished(checkpoint)], { kind: "keep" });
    const beforeSecond = await snapshot();
    await expect(finalizeCheckpoint(checkpoint.id, finished(checkpoint), { kind: "keep" })).rejects.toBeInstanceOf(
      AppendOnlyError,
    );
    expect(await snapshot()).toEqual(beforeSecond);
  });
});

describe("recoverOrphanedCheckpoints", () => {
  it("turns an orphan into an interrupted assistant entry and moves the leaf to it", async () => {
    const { session, u, checkpoint } = await streamingReply("dead-page");
    const recovered = await recoverOrphanedCheckpoints(() => false, 9_000);

    expect(recovered).toEqual([checkpoint.id]);
    const expected: MessageEntry = {
      id: checkpoint.id,
      sessionId: session.id,
      parentId: u.id,
      createdAt: checkpoint.startedAt,
      type: "message",
      role: "assistant",
      content: checkpoint.content,
      status: "interrupted",
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude-test",
      usage: { input: 10, output: 3 },
    };
    expect(await getEntry(checkpoint.id)).toEqual(expected);
    expect(await listCheckpoints()).toEqual([]);
    expect(await getSession(session.id)).toMatchObject({ leafId: checkpoint.id, updatedAt: 9_000 });
  });

  it("leaves a live owner's checkpoint alone", async () => {
    const live = await streamingReply("live-page");
    const dead = await streamingReply("dead-page");
    const asked: string[] = [];
    const recovered = await recoverOrphanedCheckpoints(async (ownerId) => {
      asked.push(ownerId);
      // Real async work (a ping over BroadcastChannel); fine because it runs before any transaction.
      await new Promise((r) => setTimeout(r, 5));
      return ownerId === "live-page";
    }, 9_000);

    expect(asked.sort()).toEqual(["dead-page", "live-page"]);
    expect(recovered).toEqual([dead.checkpoint.id]);
    expect(await listCheckpoints()).toEqual([live.checkpoint]);
    expect(await getEntry(live.checkpoint.id)).toBeUndefined();
    expect((await getSession(live.session.id))?.leafId).toBe(live.u.id);
  });

  it("keeps the leaf where it is when the user moved on since the checkpoint started", async () => {
    const { session, u, checkpoint } = await streamingReply("dead-page");
    const other = userMessage(session.id, u.id, "asked something else meanwhile");
    await appendEntries(session.id, [other], { kind: "move", to: other.id });

    expect(await recoverOrphanedCheckpoints(() => false, 9_000)).toEqual([checkpoint.id]);
    expect((await getEntry(checkpoint.id)) as Partial<MessageEntry>).toMatchObject({ status: "interrupted" });
    expect((await getSession(session.id))?.leafId).toBe(other.id);
  });

  it("drops checkpoints whose session is gone, and checkpoints of replies that exist already", async () => {
    const gone = await streamingReply("dead-page");
    await deleteSession(gone.session.id);
    await saveCheckpoint(gone.checkpoint); // a late checkpoint after the delete

    const done = await streamingReply("dead-page");
    await finalizeCheckpoint(done.checkpoint.id, finished(done.checkpoint), { kind: "move", to: done.checkpoint.id });
    await getDb().drafts.put(done.checkpoint); // e.g. a row written before saveCheckpoint checked for this
    const finalized = await getEntry(done.checkpoint.id);

    expect(await recoverOrphanedCheckpoints(() => false, 9_000)).toEqual([]);
    expect(await listCheckpoints()).toEqual([]);
    expect(await getSession(gone.session.id)).toBeUndefined();
    expect(await getEntry(gone.checkpoint.id)).toBeUndefined();
    expect(await getEntry(done.checkpoint.id)).toEqual(finalized);
  });

  it("asks once per owner", async () => {
    await streamingReply("dead-page");
    await streamingReply("dead-page");
    let calls = 0;
    const recovered = await recoverOrphanedCheckpoints(() => {
      calls += 1;
      return false;
    }, 9_000);
    expect(calls).toBe(1);
    expect(recovered).toHaveLength(2);
  });

  it("recovers an empty checkpoint as an empty interrupted reply, so the user sees what happened", async () => {
    const { checkpoint } = await streamingReply("dead-page");
    await saveCheckpoint({ ...checkpoint, content: [] });
    await recoverOrphanedCheckpoints(() => false, 9_000);
    expect(await getEntry(checkpoint.id)).toMatchObject({ content: [], status: "interrupted" });
  });
});
