import { describe, expect, it } from "vitest";
import { presetToolsFrom, presetToolsOf, usesTools, withPresetTools } from "./chat-tools";

describe("a chat's tools in a model preset", () => {
  it("keeps what the chat may use, never what it was allowed; none when it uses no tool", () => {
    const chat = {
      servers: ["s1"],
      provider: ["web_search"] as const,
      grove: ["read_chat"] as const,
      allowed: ["s1/x"],
    };
    expect(presetToolsOf(chat)).toEqual({ servers: ["s1"], provider: ["web_search"], grove: ["read_chat"] });
    expect(presetToolsOf({ servers: [], provider: [], allowed: ["s1/x"] })).toBeUndefined();
    expect(presetToolsOf(undefined)).toBeUndefined();
  });

  it("applied to a chat: the preset's choice, the chat's own permissions kept", () => {
    const applied = withPresetTools(
      { servers: ["old"], provider: [], allowed: ["old/echo"] },
      { servers: ["s1"], provider: ["code_execution"] },
    );
    expect(applied).toEqual({ servers: ["s1"], provider: ["code_execution"], allowed: ["old/echo"] });
    expect(usesTools(applied)).toBe(true);
  });

  it("reads a stored preset's tools, dropping what is not valid", () => {
    expect(
      presetToolsFrom({ servers: ["s1", 3], provider: ["web_search", "shell"], grove: ["search_my_chats", "x"] }),
    ).toEqual({ servers: ["s1"], provider: ["web_search"], grove: ["search_my_chats"] });
    expect(presetToolsFrom({ servers: [], provider: ["shell"] })).toBeUndefined();
    expect(presetToolsFrom("web_search")).toBeUndefined();
    expect(presetToolsFrom(null)).toBeUndefined();
  });
});
