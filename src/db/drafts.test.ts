import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageEntry } from "../core/session/entries";
import { newEntryId } from "../core/session/ids";
import { deleteDraft, finalizeDraft, listDrafts, recoverOrphanedDrafts, saveDraft } from "./drafts";
import { appendEntries, getEntry } from "./entries";
import { AppendOnlyError, DanglingParentError } from "./errors";
import type { Draft } from "./rows";
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

/** A session whose leaf is a user message, with a reply to it streaming into a draft. */
async function streamingReply(ownerId = "page-A") {
  const session = makeSession();
  const u = userMessage(session.id, null, "question");
  await createSession({ ...session, leafId: u.id }, [u]);
  const draft: Draft = {
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
  await saveDraft(draft);
  return { session, u, draft };
}

function finished(draft: Draft): MessageEntry {
  return {
    ...assistantMessage(draft.sessionId, draft.parentId, "partial answer, complete"),
    id: draft.id,
  };
}

describe("saveDraft / deleteDraft", () => {
  it("keeps one row per reply, replaced on each checkpoint", async () => {
    const { draft } = await streamingReply();
    await saveDraft({ ...draft, content: [{ type: "text", text: "partial answer" }], updatedAt: 7_000 });
    expect(await listDrafts()).toEqual([
      { ...draft, content: [{ type: "text", text: "partial answer" }], updatedAt: 7_000 },
    ]);
    await deleteDraft(draft.id);
    expect(await listDrafts()).toEqual([]);
  });
});

describe("finalizeDraft", () => {
  it("a checkpoint arriving after finalize is refused, so no ghost draft remains", async () => {
    const { draft } = await streamingReply();
    const entry = finished(draft);
    await finalizeDraft(draft.id, entry, { kind: "move", to: entry.id });
    expect(await saveDraft({ ...draft, updatedAt: 99_000 })).toBe(false);
    expect(await listDrafts()).toEqual([]);
    expect(await getEntry(entry.id)).toEqual(entry);
  });

  it("appends the entry, deletes the draft and moves the leaf in one transaction", async () => {
    const { session, u, draft } = await streamingReply();
    const entry = finished(draft);
    const res = await finalizeDraft(draft.id, entry, { kind: "move-if-leaf-is", expected: u.id, to: entry.id }, 8_000);
    expect(res.leafMoved).toBe(true);
    expect(await getEntry(entry.id)).toEqual(entry);
    expect(await listDrafts()).toEqual([]);
    expect(await getSession(session.id)).toMatchObject({ leafId: entry.id, updatedAt: 8_000 });
  });

  it("is atomic: a failing append keeps the draft and writes nothing", async () => {
    const { u, draft } = await streamingReply();
    const before = await snapshot();
    const dangling: MessageEntry = { ...finished(draft), parentId: newEntryId() };
    await expect(finalizeDraft(draft.id, dangling, { kind: "move", to: dangling.id })).rejects.toBeInstanceOf(
      DanglingParentError,
    );
    expect(await snapshot()).toEqual(before);

    // The reply was already recovered by another tab: its id exists.
    await appendEntries(u.sessionId, [finished(draft)], { kind: "keep" });
    const beforeSecond = await snapshot();
    await expect(finalizeDraft(draft.id, finished(draft), { kind: "keep" })).rejects.toBeInstanceOf(AppendOnlyError);
    expect(await snapshot()).toEqual(beforeSecond);
  });
});

describe("recoverOrphanedDrafts", () => {
  it("turns an orphan into an interrupted assistant entry and moves the leaf to it", async () => {
    const { session, u, draft } = await streamingReply("dead-page");
    const recovered = await recoverOrphanedDrafts(() => false, 9_000);

    expect(recovered).toEqual([draft.id]);
    const expected: MessageEntry = {
      id: draft.id,
      sessionId: session.id,
      parentId: u.id,
      createdAt: draft.startedAt,
      type: "message",
      role: "assistant",
      content: draft.content,
      status: "interrupted",
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude-test",
      usage: { input: 10, output: 3 },
    };
    expect(await getEntry(draft.id)).toEqual(expected);
    expect(await listDrafts()).toEqual([]);
    expect(await getSession(session.id)).toMatchObject({ leafId: draft.id, updatedAt: 9_000 });
  });

  it("leaves a live owner's draft alone", async () => {
    const live = await streamingReply("live-page");
    const dead = await streamingReply("dead-page");
    const asked: string[] = [];
    const recovered = await recoverOrphanedDrafts(async (ownerId) => {
      asked.push(ownerId);
      // Real async work (a ping over BroadcastChannel); fine because it runs before any transaction.
      await new Promise((r) => setTimeout(r, 5));
      return ownerId === "live-page";
    }, 9_000);

    expect(asked.sort()).toEqual(["dead-page", "live-page"]);
    expect(recovered).toEqual([dead.draft.id]);
    expect(await listDrafts()).toEqual([live.draft]);
    expect(await getEntry(live.draft.id)).toBeUndefined();
    expect((await getSession(live.session.id))?.leafId).toBe(live.u.id);
  });

  it("keeps the leaf where it is when the user moved on since the draft started", async () => {
    const { session, u, draft } = await streamingReply("dead-page");
    const other = userMessage(session.id, u.id, "asked something else meanwhile");
    await appendEntries(session.id, [other], { kind: "move", to: other.id });

    expect(await recoverOrphanedDrafts(() => false, 9_000)).toEqual([draft.id]);
    expect((await getEntry(draft.id)) as Partial<MessageEntry>).toMatchObject({ status: "interrupted" });
    expect((await getSession(session.id))?.leafId).toBe(other.id);
  });

  it("drops drafts whose session is gone, and drafts of replies that exist already", async () => {
    const gone = await streamingReply("dead-page");
    await deleteSession(gone.session.id);
    await saveDraft(gone.draft); // a late checkpoint after the delete

    const done = await streamingReply("dead-page");
    await finalizeDraft(done.draft.id, finished(done.draft), { kind: "move", to: done.draft.id });
    await getDb().drafts.put(done.draft); // e.g. a row written before saveDraft checked for this
    const finalized = await getEntry(done.draft.id);

    expect(await recoverOrphanedDrafts(() => false, 9_000)).toEqual([]);
    expect(await listDrafts()).toEqual([]);
    expect(await getSession(gone.session.id)).toBeUndefined();
    expect(await getEntry(gone.draft.id)).toBeUndefined();
    expect(await getEntry(done.draft.id)).toEqual(finalized);
  });

  it("asks once per owner", async () => {
    await streamingReply("dead-page");
    await streamingReply("dead-page");
    let calls = 0;
    const recovered = await recoverOrphanedDrafts(() => {
      calls += 1;
      return false;
    }, 9_000);
    expect(calls).toBe(1);
    expect(recovered).toHaveLength(2);
  });

  it("recovers an empty draft as an empty interrupted reply, so the user sees what happened", async () => {
    const { draft } = await streamingReply("dead-page");
    await saveDraft({ ...draft, content: [] });
    await recoverOrphanedDrafts(() => false, 9_000);
    expect(await getEntry(draft.id)).toMatchObject({ content: [], status: "interrupted" });
  });
});
