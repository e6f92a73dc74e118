import "fake-indexeddb/auto";
import Dexie from "dexie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MessageEntry, Session } from "../../core/session/entries";
import { newEntryId, newSessionId, type SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { createSession } from "../../db/sessions";
import { freshDatabase, getDb } from "../../db/testing/database";
import { useHoldStore } from "../activity/holds";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { stopReply } from "../reply/reply-lane";
import { useStreamStore } from "../reply/stream-store";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { REFUSED_ENDPOINT } from "../testing/settings";
import { resetPendingSends, usePendingSendStore } from "./pending-send";
import { sendMessage } from "./send";

// send.ts loads the reply engine on demand; loaded here first, so a test waits on the send, not on
// transforming that module graph the first time.
await import("../maintenance/triggers");

beforeEach(() => {
  freshDatabase();
  resetStores();
  resetPendingSends();
  useSettingsStore.setState({ settings: REFUSED_ENDPOINT, loaded: true });
});
afterEach(async () => {
  // Replies started by a test finish in its own database, not the next test's.
  await vi.waitFor(() => {
    expect(useStreamStore.getState().replies).toEqual({});
    expect(useHoldStore.getState().busy).toEqual({});
  });
  resetStores();
  resetPendingSends();
});

/** The message pending in `sessionId` (a send or an edit; a regenerate has none). */
const pendingIn = (sessionId: SessionId) => {
  const p = usePendingSendStore.getState().sends[sessionId];
  return p && "entry" in p ? p : undefined;
};
const replyIn = (sessionId: SessionId) => useStreamStore.getState().replies[sessionId];

/** A stored chat with one question, open on screen. */
async function openChat(): Promise<{ session: Session; question: MessageEntry }> {
  const sessionId = newSessionId();
  const question: MessageEntry = {
    id: newEntryId(),
    sessionId,
    parentId: null,
    createdAt: 1,
    type: "message",
    role: "user",
    content: [{ type: "text", text: "Q" }],
    status: "complete",
  };
  const session: Session = {
    id: sessionId,
    title: "Q",
    titleSource: "auto",
    createdAt: 1,
    updatedAt: 1,
    leafId: question.id,
    model: { providerId: "custom-test", modelId: "m" },
  };
  await createSession(session, [question]);
  useUiStore.setState({ sessionId });
  return { session, question };
}

/** Every write to the entries table fails, as with a full disk. */
function failEntryWrites(): void {
  getDb().entries.hook("creating", () => {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  });
}

describe("a send is on screen before any await", () => {
  it("in a chat: the message under the leaf and the placeholder under it; the stored entries keep those ids", async () => {
    const { session, question } = await openChat();
    const sending = sendMessage("Follow-up", question.id, [], session);
    // Synchronously, in the keydown's task.
    const shown = pendingIn(session.id);
    expect(shown).toMatchObject({
      phase: "saving",
      entry: { parentId: question.id },
      target: { kind: "existing_chat" },
    });
    const placeholder = replyIn(session.id);
    expect(placeholder).toMatchObject({ phase: "preparing", parentId: shown?.entry.id });

    expect(await sending).toBe(session.id);
    expect(pendingIn(session.id)?.phase).toBe("saved");
    await vi.waitFor(async () => expect(await getEntries(session.id)).toHaveLength(3));
    const entries = await getEntries(session.id);
    expect(entries.map((e) => e.id)).toContain(shown?.entry.id);
    // The reply that took the placeholder over was written with its id (the row is replaced in place).
    expect(entries.map((e) => e.id)).toContain(placeholder?.checkpointId);
  });

  it("a new chat: the view switches to it at once, with the message and the placeholder", async () => {
    const sending = sendMessage("Hello");
    const sessionId = useUiStore.getState().sessionId;
    expect(sessionId).not.toBeNull();
    const shown = pendingIn(sessionId as SessionId);
    expect(shown?.target.kind).toBe("new_chat");
    expect(replyIn(sessionId as SessionId)?.parentId).toBe(shown?.entry.id);
    expect(await sending).toBe(sessionId);
    const entries = await getEntries(sessionId as SessionId);
    expect(entries[0]?.id).toBe(shown?.entry.id);
  });

  it("Stop before the write has finished: the placeholder goes at once, the message is kept, nothing is answered", async () => {
    const { session, question } = await openChat();
    const sending = sendMessage("Never mind", question.id, [], session);
    stopReply(session.id);
    expect(replyIn(session.id)).toBeUndefined();
    await sending;
    await vi.waitFor(() => expect(useUiStore.getState().notices).toEqual([]));
    const entries = await getEntries(session.id);
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.type !== "message" || e.role === "user")).toBe(true);
    expect(replyIn(session.id)).toBeUndefined();
  });
});

describe("a send that cannot be stored leaves the screen, and the composer gets its text back", () => {
  it("in a chat: null (the composer restores the text), nothing shown, the reason said", async () => {
    const { session, question } = await openChat();
    failEntryWrites();
    const sending = sendMessage("Lost?", question.id, [], session);
    expect(pendingIn(session.id)).toBeDefined();
    expect(await sending).toBeNull();
    expect(pendingIn(session.id)).toBeUndefined();
    expect(replyIn(session.id)).toBeUndefined();
    expect(useUiStore.getState().notices.at(-1)?.text).toMatch(/could not be saved/);
  });

  it("a new chat: back on the new-chat screen, nothing shown", async () => {
    failEntryWrites();
    const sending = sendMessage("Lost?");
    const sessionId = useUiStore.getState().sessionId as SessionId;
    expect(pendingIn(sessionId)).toBeDefined();
    expect(await sending).toBeNull();
    expect(useUiStore.getState().sessionId).toBeNull();
    expect(pendingIn(sessionId)).toBeUndefined();
    expect(replyIn(sessionId)).toBeUndefined();
  });

  it("a read that fails before the write: nothing stays on screen, and a Stop then cannot silence the next send", async () => {
    const { session, question } = await openChat();
    const sessions = getDb().sessions;
    vi.spyOn(sessions, "get").mockImplementationOnce(() =>
      Dexie.Promise.reject(new DOMException("The database connection is closing.", "InvalidStateError")),
    );
    expect(await sendMessage("Lost?", question.id, [], session)).toBeNull();
    expect(pendingIn(session.id)).toBeUndefined();
    expect(replyIn(session.id)).toBeUndefined();
    expect(useUiStore.getState().notices.at(-1)?.text).toMatch(/could not be saved/);
    stopReply(session.id); // nothing to stop: must not carry over to the next send

    expect(await sendMessage("Again", question.id, [], session)).toBe(session.id);
    // The next send is answered (this provider answers at once with an error entry: no network).
    await vi.waitFor(async () => {
      const entries = await getEntries(session.id);
      expect(entries.some((e) => e.type === "message" && e.role === "assistant")).toBe(true);
    });
  });

  it("without a key nothing is shown even for a moment", async () => {
    useSettingsStore.setState({ settings: DEFAULT_SETTINGS, loaded: true });
    const sending = sendMessage("Hello");
    expect(usePendingSendStore.getState().sends).toEqual({});
    expect(useUiStore.getState().sessionId).toBeNull();
    expect(await sending).toBeNull();
  });
});
