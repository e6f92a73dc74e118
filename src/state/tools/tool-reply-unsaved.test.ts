/**
 * A tool step the storage refuses (disk full) is shown like a plain reply's: kept on screen as "Not
 * saved", the loop ended there with no error notice, and written by a later attempt (unsaved.ts).
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageEntry } from "../../core/session/entries";
import { getEntries } from "../../db/entries";
import { getSession, updateSession } from "../../db/sessions";
import { fillDiskForReplies, freshDatabase } from "../../db/testing/database";
import { chatActivity } from "../activity/chat-activity";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { replyAndMaintain } from "../maintenance/triggers";
import { useStreamStore } from "../reply/stream-store";
import { STORAGE_FULL_TEXT, saveUnsaved, whenSaved } from "../reply/unsaved";
import { chatModel, chatWithQuestion, thresholdSettings } from "../testing/conversation";

const MODEL = { providerId: "openai", modelId: "gpt-4o" } as const;

beforeEach(() => {
  freshDatabase();
  resetStores();
  thresholdSettings(MODEL, {}, { enabled: false });
});
afterEach(() => resetStores());

describe("a tool step the storage refuses", () => {
  it("stays on screen as unsaved (no notice, no silent retry of the loop) and is written by a later attempt", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    await updateSession(sessionId, { tools: { servers: ["gone"], provider: [] } });
    const disk = await fillDiskForReplies();
    const model = chatModel([{ text: "An answer the disk refused." }, { text: "never asked" }]);
    await replyAndMaintain(sessionId, question.id, {}, { reply: { stream: model.stream, now: () => 5 } });

    expect(model.requests).toHaveLength(1);
    expect(useStreamStore.getState().replies[sessionId]).toMatchObject({
      phase: "unsaved",
      saveError: STORAGE_FULL_TEXT,
      partial: { content: [{ type: "text", text: "An answer the disk refused." }] },
    });
    expect(useUiStore.getState().notices).toEqual([]);
    expect(chatActivity(sessionId).replying).toBe(true);

    disk.free();
    expect(await saveUnsaved(sessionId)).toBe(true);
    await whenSaved(sessionId);
    expect(useStreamStore.getState().replies[sessionId]).toBeUndefined();
    const saved = (await getEntries(sessionId)).find((e) => e.parentId === question.id) as MessageEntry;
    expect(saved.content).toEqual([{ type: "text", text: "An answer the disk refused." }]);
    expect((await getSession(sessionId))?.leafId).toBe(saved.id);
  });
});
