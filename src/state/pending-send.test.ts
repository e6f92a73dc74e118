import { afterEach, describe, expect, it } from "vitest";
import type { MessageEntry } from "../core/session/entries";
import { newEntryId, newSessionId, type SessionId } from "../core/session/ids";
import { beginSend, dropSend, resetPendingSends, sendSaved, settleSend, usePendingSendStore } from "./pending-send";

const sessionId = newSessionId();
const message = (id = newEntryId(), s: SessionId = sessionId): MessageEntry => ({
  id,
  sessionId: s,
  parentId: null,
  createdAt: 1,
  type: "message",
  role: "user",
  content: [{ type: "text", text: "hi" }],
  status: "complete",
});
const pending = () => usePendingSendStore.getState().sends[sessionId];

afterEach(resetPendingSends);

describe("the pending send's transitions", () => {
  it("saving → saved → settled once the chat has read it", () => {
    const entry = message();
    beginSend(entry, { kind: "existing_chat" });
    expect(pending()).toMatchObject({ phase: "saving", entry });
    // Not settled while it is being written, even if asked (a live read raced the write's return).
    settleSend(sessionId, entry.id);
    expect(pending()?.phase).toBe("saving");
    sendSaved(sessionId, entry.id);
    expect(pending()?.phase).toBe("saved");
    settleSend(sessionId, entry.id);
    expect(pending()).toBeUndefined();
  });

  it("saving → dropped when it cannot be stored", () => {
    const entry = message();
    beginSend(entry, { kind: "existing_chat" });
    dropSend(sessionId, entry.id);
    expect(pending()).toBeUndefined();
  });

  it("a transition for another message leaves the one shown alone", () => {
    const shown = message();
    beginSend(shown, { kind: "existing_chat" });
    const other = newEntryId();
    sendSaved(sessionId, other);
    dropSend(sessionId, other);
    expect(pending()).toMatchObject({ phase: "saving", entry: shown });
  });

  it("one per chat: a later send replaces it; chats are apart", () => {
    const first = message();
    const second = message();
    const elsewhere = message(newEntryId(), newSessionId());
    beginSend(first, { kind: "existing_chat" });
    beginSend(elsewhere, { kind: "existing_chat" });
    beginSend(second, { kind: "existing_chat" });
    expect(pending()?.entry.id).toBe(second.id);
    expect(Object.keys(usePendingSendStore.getState().sends)).toHaveLength(2);
  });
});
