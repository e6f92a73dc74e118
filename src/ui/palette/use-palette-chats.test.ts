import { describe, expect, it } from "vitest";
import type { SessionId } from "../../core/session/ids";
import type { ChatSearchResult } from "../../db/search/search-types";
import { chatsFrom } from "./use-palette-chats";

const hit = (sessionId: string, title: string, entryId: string | null, text = ""): ChatSearchResult => ({
  sessionId: sessionId as SessionId,
  entryId: entryId as ChatSearchResult["entryId"],
  title,
  at: 0,
  kind: entryId === null ? "title" : "message",
  snippet: [{ text, hit: false }],
});

describe("chatsFrom", () => {
  it("offers each chat once, by its best hit, and says where the words were found", () => {
    const chats = chatsFrom([
      hit("a", "Lisbon walk", null),
      hit("a", "Lisbon walk", "e1", "a walk in Lisbon"),
      hit("b", "Penguins", "e2", " count at dawn "),
    ]);
    expect(chats.map((c) => [c.label, c.hint])).toEqual([
      ["Lisbon walk", "Found in the title"],
      ["Penguins", "count at dawn"],
    ]);
  });

  it("stops at six chats", () => {
    const many = Array.from({ length: 9 }, (_, i) => hit(`s${i.toString()}`, `Chat ${i.toString()}`, null));
    expect(chatsFrom(many)).toHaveLength(6);
  });
});
