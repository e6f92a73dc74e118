/**
 * Edit, Regenerate and Continue show their result before any await, like a send
 * (send-at-once.test.ts): the pending change (pending-send.ts) and the reply placeholder are in the
 * stores in the task of the click, the writes follow; a write that fails takes them off again.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MessageEntry, Session } from "../../core/session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { createSession, getSession } from "../../db/sessions";
import { freshDatabase, getDb } from "../../db/testing/database";
import { useHoldStore } from "../activity/holds";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { stopReply } from "../reply/reply-lane";
import { useStreamStore } from "../reply/stream-store";
import { useSettingsStore } from "../settings/settings-store";
import { REFUSED_ENDPOINT } from "../testing/settings";
import { resetPendingSends, usePendingSendStore } from "./pending-send";
import { continueReply, editMessage, regenerate } from "./send";

// send.ts loads the reply engine on demand; loaded here first, so a test waits on the send, not on
// transforming that module graph the first time.
await import("../maintenance/triggers");

/** Waits on state, not time: generous, since the reply's first steps load modules on a busy machine. */
const SETTLED = { timeout: 10_000 };

beforeEach(() => {
  freshDatabase();
  resetStores();
  resetPendingSends();
  useSettingsStore.setState({ settings: REFUSED_ENDPOINT, loaded: true });
});
afterEach(async () => {
  await vi.waitFor(() => {
    expect(useStreamStore.getState().replies).toEqual({});
    expect(useHoldStore.getState().busy).toEqual({});
  }, SETTLED);
  resetStores();
  resetPendingSends();
});

const pendingIn = (sessionId: SessionId) => usePendingSendStore.getState().sends[sessionId];
const replyIn = (sessionId: SessionId) => useStreamStore.getState().replies[sessionId];

const messageOf = (
  sessionId: SessionId,
  parentId: EntryId | null,
  role: "user" | "assistant",
  text: string,
  at: number,
): MessageEntry => ({
  id: newEntryId(),
  sessionId,
  parentId,
  createdAt: at,
  type: "message",
  role,
  content: [{ type: "text", text }],
  status: "complete",
});

/** A stored chat: question, answer, open on screen. */
async function openChat(): Promise<{ session: Session; question: MessageEntry; answer: MessageEntry }> {
  const sessionId = newSessionId();
  const question = messageOf(sessionId, null, "user", "Q", 1);
  const answer = messageOf(sessionId, question.id, "assistant", "A", 2);
  const session: Session = {
    id: sessionId,
    title: "Q",
    titleSource: "auto",
    createdAt: 1,
    updatedAt: 1,
    leafId: answer.id,
    model: { providerId: "custom-test", modelId: "m" },
  };
  await createSession(session, [question, answer]);
  useUiStore.setState({ sessionId });
  return { session, question, answer };
}

describe("Edit", () => {
  it("the new version and the placeholder under it are shown before any await; stored with those ids", async () => {
    const { session, question } = await openChat();
    useUiStore.setState({ editingId: question.id });
    const saving = editMessage(session.id, question.id, "Q, reworded", question);
    const shown = pendingIn(session.id);
    expect(shown).toMatchObject({
      phase: "saving",
      entry: { parentId: null, content: [{ type: "text", text: "Q, reworded" }] },
      target: { kind: "edit", replaces: question.id },
    });
    const entryId = shown && "entry" in shown ? shown.entry.id : undefined;
    expect(replyIn(session.id)).toMatchObject({ phase: "preparing", parentId: entryId });
    expect(useUiStore.getState().editingId).toBeNull();

    await saving;
    expect(pendingIn(session.id)?.phase).toBe("saved");
    expect((await getSession(session.id))?.leafId).not.toBe(session.leafId);
    await vi.waitFor(async () => expect(await getEntries(session.id)).toHaveLength(4), SETTLED);
    const ids = (await getEntries(session.id)).map((e) => e.id);
    expect(ids).toContain(entryId);
  });

  it("a write that fails: nothing stays shown, the editor reopens with the text, the reason is said", async () => {
    const { session, question } = await openChat();
    getDb().entries.hook("creating", () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });
    useUiStore.setState({ editingId: question.id });
    const saving = editMessage(session.id, question.id, "my careful rewording", question);
    expect(pendingIn(session.id)).toBeDefined();
    await saving;
    expect(pendingIn(session.id)).toBeUndefined();
    expect(replyIn(session.id)).toBeUndefined();
    expect(useUiStore.getState().editingId).toBe(question.id);
    expect(usePendingSendStore.getState().returnedEdits[question.id]).toBe("my careful rewording");
    expect(useUiStore.getState().notices.at(-1)?.text).toMatch(/edit could not be saved/);
    expect(await getEntries(session.id)).toHaveLength(2);
  });

  it("Stop before the write has finished: the placeholder goes at once, the edit is kept, nothing is answered", async () => {
    const { session, question } = await openChat();
    const saving = editMessage(session.id, question.id, "Q2", question);
    stopReply(session.id);
    expect(replyIn(session.id)).toBeUndefined();
    await saving;
    await vi.waitFor(() => expect(useStreamStore.getState().replies).toEqual({}), SETTLED);
    const entries = await getEntries(session.id);
    expect(entries).toHaveLength(3);
    expect(entries.filter((e) => e.type === "message" && e.role === "assistant")).toHaveLength(1);
  });
});

describe("Regenerate", () => {
  it("the path cut at the question and the placeholder there are shown before any await; the new reply is a sibling", async () => {
    const { session, question, answer } = await openChat();
    const running = regenerate(session.id, answer.id, answer);
    expect(pendingIn(session.id)).toEqual({
      phase: "saving",
      regenerate: { sessionId: session.id, replaces: answer.id, parentId: question.id },
    });
    expect(replyIn(session.id)).toMatchObject({ phase: "preparing", parentId: question.id });
    await running;
    const entries = await getEntries(session.id);
    expect(entries.filter((e) => e.parentId === question.id)).toHaveLength(2);
  });

  it("a leaf that cannot be moved: the old path and no placeholder, the reason said", async () => {
    const { session, answer } = await openChat();
    getDb().sessions.hook("updating", () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });
    const running = regenerate(session.id, answer.id, answer);
    expect(pendingIn(session.id)).toBeDefined();
    await running;
    expect(pendingIn(session.id)).toBeUndefined();
    expect(replyIn(session.id)).toBeUndefined();
    expect(useUiStore.getState().notices.at(-1)?.text).toMatch(/Could not regenerate/);
    expect((await getSession(session.id))?.leafId).toBe(answer.id);
  });

  it("Stop before the leaf has moved: the placeholder goes at once and nothing is answered", async () => {
    const { session, question, answer } = await openChat();
    const running = regenerate(session.id, answer.id, answer);
    stopReply(session.id);
    expect(replyIn(session.id)).toBeUndefined();
    await running;
    expect(await getEntries(session.id)).toHaveLength(2);
    expect((await getSession(session.id))?.leafId).toBe(question.id);
  });
});

it("Retry of a reply that failed again: the leaf is back on it and nothing stays cut", async () => {
  const { session, question, answer } = await openChat();
  const failed: MessageEntry = { ...answer, id: newEntryId(), content: [], status: "error", createdAt: 3 };
  await getDb().entries.add(failed);
  await regenerate(session.id, failed.id, failed);
  expect(pendingIn(session.id)).toBeUndefined();
  const entries = await getEntries(session.id);
  expect(entries.filter((e) => e.parentId === question.id)).toHaveLength(2);
  expect((await getSession(session.id))?.leafId).toBe(failed.id);
});

describe("Continue", () => {
  it("the placeholder under the leaf on screen is shown before any await", async () => {
    const { session, answer } = await openChat();
    const running = continueReply(session.id, answer.id, answer.id);
    expect(replyIn(session.id)).toMatchObject({ phase: "preparing", parentId: answer.id });
    await running;
    await vi.waitFor(async () => expect(await getEntries(session.id)).toHaveLength(3), SETTLED);
    const continuation = (await getEntries(session.id)).find((e) => e.parentId === answer.id);
    expect(continuation).toMatchObject({ continues: answer.id });
  });
});
