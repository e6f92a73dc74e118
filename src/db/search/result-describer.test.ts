import { describe, expect, it } from "vitest";
import type { IndexHit } from "../../core/search/chat-index";
import { asEntryId, asSessionId } from "../../core/session/ids";
import { assistantMessage, makeSession } from "../testing/database";
import { describeHits, type Shown, shownOf } from "./result-describer";

const chat = makeSession({ id: asSessionId("chat-1"), title: "Alps trip", updatedAt: 9_000 });
const hit = (entryId: string | null, terms: string[], sessionId = chat.id): IndexHit => ({
  sessionId,
  entryId: entryId === null ? null : asEntryId(entryId),
  score: 1,
  terms,
});
const snippetText = (parts: { text: string; hit?: boolean }[]) =>
  parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join("");

describe("describeHits", () => {
  const shown = new Map<ReturnType<typeof asEntryId>, Shown>([
    [asEntryId("e1"), { text: "Trains from Zurich are easiest.", at: 3_000, kind: "message", role: "assistant" }],
  ]);
  const sessions = new Map([[chat.id, chat]]);

  it("an entry's hit shows its chat's title, its time, kind, role and a snippet around the words found", () => {
    const [result] = describeHits([hit("e1", ["zurich"])], sessions, shown);
    expect(result).toMatchObject({ sessionId: chat.id, entryId: "e1", title: "Alps trip", at: 3_000, kind: "message" });
    expect(result?.role).toBe("assistant");
    expect(snippetText(result!.snippet)).toBe("Trains from [Zurich] are easiest.");
  });

  it("a title's hit shows the chat's last update and its title as the snippet", () => {
    const [result] = describeHits([hit(null, ["alps"])], sessions, shown);
    expect(result).toMatchObject({ entryId: null, kind: "title", at: 9_000 });
    expect(snippetText(result!.snippet)).toBe("[Alps] trip");
  });

  it("leaves out hits of a deleted chat and of entries it could not read, keeping the order of the rest", () => {
    const results = describeHits(
      [hit("e1", ["zurich"], asSessionId("gone")), hit("missing", ["x"]), hit(null, ["trip"]), hit("e1", ["trains"])],
      sessions,
      shown,
    );
    expect(results.map((r) => r.kind)).toEqual(["title", "message"]);
  });
});

describe("shownOf", () => {
  it("keeps an entry's text, time and kind, and a message's role", () => {
    const e = assistantMessage(chat.id, null, "Oak, ash, elm.", 4_000);
    expect(shownOf(e)).toEqual({ text: "Oak, ash, elm.", at: 4_000, kind: "message", role: "assistant" });
  });
});
