/** The mock's chat-title rule: a title request never eats the chat's scripts, and gets a title of its own. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHAT_TITLE_SYSTEM_MARK, defaultChatTitle, isChatTitleRequest } from "./chat-title";
import { planReply, takeScript } from "./plan";
import { DEFAULT_MOCK_CONFIG } from "./server";
import type { ReplyScript } from "./types";

const titleRequest = {
  api: "anthropic" as const,
  body: {
    system: readFileSync(new URL("../../prompts/chat-title-system.md", import.meta.url), "utf8"),
    messages: [
      {
        role: "user",
        content: "Here is how a conversation began.\n\n<user>\nHi! Can you help me plan a trip\n</user>",
      },
    ],
  },
};
const chatRequest = { api: "anthropic" as const, body: { messages: [{ role: "user", content: "Hi!" }] } };

describe("chat title requests", () => {
  it("are known by Grove's title system prompt", () => {
    expect(isChatTitleRequest(titleRequest)).toBe(true);
    expect(isChatTitleRequest(chatRequest)).toBe(false);
    expect(CHAT_TITLE_SYSTEM_MARK).not.toBe("");
  });

  it("take only a script matched to them, leaving the chat's scripts queued", () => {
    const queue: ReplyScript[] = [{ text: "Second reply." }, { text: "Trip planning", match: { system: "You name" } }];
    expect(takeScript(queue, titleRequest)?.text).toBe("Trip planning");
    expect(takeScript(queue, titleRequest)).toBeUndefined();
    expect(queue).toEqual([{ text: "Second reply." }]);
    expect(takeScript(queue, chatRequest)?.text).toBe("Second reply.");
  });

  it("without a script, are answered with a mock title from the user's first words", () => {
    expect(defaultChatTitle(titleRequest)).toBe("Mock title: Hi! Can you help");
    expect(planReply(undefined, titleRequest, DEFAULT_MOCK_CONFIG).text).toBe("Mock title: Hi! Can you help");
    expect(planReply(undefined, chatRequest, DEFAULT_MOCK_CONFIG).text).toBe("Echo: Hi!");
  });
});
