import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolCallBlock } from "../../core/session/entries";
import { createSession } from "../../db/sessions";
import { assistantMessage, freshDatabase, makeSession, userMessage } from "../../db/testing/database";
import { resetStores } from "../app/store-registry";
import { runGroveTool } from "./grove-tools";

const call = (name: string, args: unknown): ToolCallBlock => ({ type: "tool_call", id: "c1", name, args });

beforeEach(() => {
  freshDatabase();
  resetStores();
});
afterEach(() => resetStores());

describe("Grove's own tools, run in this browser", () => {
  it("Read a chat: the chat's current branch as text; this chat, an unknown id and a missing id are plain errors", async () => {
    const other = makeSession({ title: "Fish" });
    const q = userMessage(other.id, null, "Tell me about zebrafish", 10);
    const r = assistantMessage(other.id, q.id, "They regrow hearts.", 11);
    await createSession({ ...other, leafId: r.id }, [q, r]);
    const here = makeSession();

    const read = await runGroveTool("read_chat", call("read_chat", { chat_id: other.id }), here.id);
    expect(read).toEqual({
      text: 'Chat "Fish":\n\nuser: Tell me about zebrafish\n\nassistant: They regrow hearts.',
      isError: false,
    });
    expect(await runGroveTool("read_chat", call("read_chat", { chat_id: here.id }), here.id)).toMatchObject({
      isError: true,
      text: "That is this chat: you have it already.",
    });
    expect(await runGroveTool("read_chat", call("read_chat", { chat_id: "nope" }), here.id)).toMatchObject({
      isError: true,
      text: 'There is no chat with the id "nope".',
    });
    expect(await runGroveTool("read_chat", call("read_chat", {}), here.id)).toMatchObject({ isError: true });
    expect(await runGroveTool("search_my_chats", call("search_my_chats", { query: " " }), here.id)).toMatchObject({
      isError: true,
      text: 'search_my_chats needs a "query".',
    });
  });
});
