import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { asEntryId, asSessionId } from "../session/ids";
import { isChatbotUiShaped, parseChatbotUiValue } from "./chatbot-ui";

const sample: { history: unknown[] } = JSON.parse(
  readFileSync(fileURLToPath(new URL("./testing/fixtures/chatbot-ui-export.json", import.meta.url)), "utf8"),
);

function ids() {
  let e = 0;
  let s = 0;
  return { newEntryId: () => asEntryId(`e${++e}`), newSessionId: () => asSessionId(`s${++s}`), now: () => 1_000 };
}

describe("parseChatbotUiValue", () => {
  it("imports each conversation as one line, with its name, model and prompt; skips the empty one", () => {
    expect(isChatbotUiShaped(sample)).toBe(true);
    const r = parseChatbotUiValue(sample, ids());
    if (r.kind !== "ok") throw new Error(r.message);
    expect(r.sessions.map((s) => s.session.title)).toEqual(["Explain CRDTs", "Haiku about rain"]);
    expect(r.skipped).toEqual([{ title: "New Conversation", reason: "no messages" }]);
    const [crdt, haiku] = r.sessions;
    expect(crdt?.session.systemPrompt).toMatch(/^You are ChatGPT/);
    expect(haiku?.session.systemPrompt).toBeUndefined();
    expect(crdt?.session.importedFrom).toBe("chatbot-ui:8d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a");
    expect(crdt?.entries.map((e) => (e.type === "message" ? [e.role, e.model] : []))).toEqual([
      ["user", undefined],
      ["assistant", "gpt-4"],
    ]);
    expect(crdt?.session.leafId).toBe(crdt?.entries[1]?.id);
    // No timestamps in the file: file order, a millisecond apart, before the import's time.
    expect(crdt?.session.createdAt).toBeLessThan(haiku?.session.createdAt ?? 0);
    expect(haiku?.session.createdAt).toBeLessThanOrEqual(1_000);
  });

  it("reads version 1 (the bare history list) too", () => {
    expect(isChatbotUiShaped(sample.history)).toBe(true);
    const r = parseChatbotUiValue(sample.history, ids());
    expect(r.kind === "ok" && r.sessions.length).toBe(2);
  });
});
