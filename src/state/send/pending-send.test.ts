import { afterEach, describe, expect, it } from "vitest";
import type { MessageEntry } from "../../core/session/entries";
import { newEntryId, newSessionId, type SessionId } from "../../core/session/ids";
import {
  beginRegenerate,
  beginSend,
  dropSend,
  resetPendingSends,
  returnEdit,
  sendSaved,
  settleSend,
  usePendingSendStore,
} from "./pending-send";

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
    expect(pending()).toMatchObject({ entry: { id: second.id } });
    expect(Object.keys(usePendingSendStore.getState().sends)).toHaveLength(2);
  });

  it("a regenerate: saving → saved → settled, known by the reply it replaces", () => {
    const replaces = newEntryId();
    beginRegenerate({ sessionId, replaces, parentId: newEntryId() });
    settleSend(sessionId, replaces);
    expect(pending()?.phase).toBe("saving");
    sendSaved(sessionId, replaces);
    expect(pending()?.phase).toBe("saved");
    settleSend(sessionId, replaces);
    expect(pending()).toBeUndefined();
    beginRegenerate({ sessionId, replaces, parentId: newEntryId() });
    dropSend(sessionId, replaces);
    expect(pending()).toBeUndefined();
  });

  it("an edit that could not be stored gives its text back; saving the edit again takes it", () => {
    const edited = newEntryId();
    returnEdit(edited, "my careful rewording");
    expect(usePendingSendStore.getState().returnedEdits[edited]).toBe("my careful rewording");
    beginSend(message(), { kind: "edit", replaces: edited });
    expect(usePendingSendStore.getState().returnedEdits[edited]).toBeUndefined();
  });
});
