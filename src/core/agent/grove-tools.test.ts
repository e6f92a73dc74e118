import { describe, expect, it } from "vitest";
import { a, linkPath, u } from "../testing/entries";
import { chatHitsText, chatTranscriptText, GROVE_TOOL_SPECS, groveToolOf, SEARCH_TOOL_MAX_HITS } from "./grove-tools";

describe("Grove's own tools: what the model is shown", () => {
  it("names: only the two tools are Grove's, whatever a server calls its own", () => {
    expect(groveToolOf("search_my_chats")).toBe("search_my_chats");
    expect(groveToolOf("read_chat")).toBe("read_chat");
    expect(groveToolOf("local__search_my_chats")).toBeNull();
    expect(GROVE_TOOL_SPECS.read_chat.parameters).toMatchObject({ required: ["chat_id"] });
  });

  it("search hits: one a line with the id read_chat takes, at most the limit; none said plainly", () => {
    const hits = Array.from({ length: 12 }, (_, i) => ({
      chatId: `chat-${i}`,
      title: `Fish ${i}`,
      at: Date.UTC(2026, 0, 2),
      role: "assistant",
      snippet: "zebrafish  regrow\nhearts",
    }));
    const text = chatHitsText("zebrafish", hits);
    expect(text.split("\n")).toHaveLength(1 + SEARCH_TOOL_MAX_HITS);
    expect(text).toContain('- chat_id chat-0 · "Fish 0" · 2026-01-02 · assistant: zebrafish regrow hearts');
    expect(chatHitsText("nothing", [])).toBe('No chat matches "nothing".');
  });

  it("a chat as text: its title and each message's text in order", () => {
    const path = linkPath([u("u1", "Tell me about zebrafish"), a("a1", "They regrow hearts.")]);
    expect(chatTranscriptText("Fish", path)).toBe(
      'Chat "Fish":\n\nuser: Tell me about zebrafish\n\nassistant: They regrow hearts.',
    );
  });
});
