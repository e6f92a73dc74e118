import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import type { ExportedSession } from "./grove-json";
import { isLibreChatShaped, parseLibreChatValue } from "./librechat";

const read = (name: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`./testing/fixtures/${name}`, import.meta.url)), "utf8"));

function ids() {
  let e = 0;
  return { newEntryId: () => asEntryId(`e${++e}`), newSessionId: () => asSessionId("s1"), now: () => 42 };
}
const messages = (s: ExportedSession | undefined) =>
  (s?.entries ?? []).filter((e): e is MessageEntry => e.type === "message");
const textOf = (m: MessageEntry | undefined) =>
  (m?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");

function ok(raw: unknown): ExportedSession {
  const r = parseLibreChatValue(raw, ids());
  if (r.kind !== "ok" || !r.sessions[0]) throw new Error(r.kind === "error" ? r.message : "no session");
  return r.sessions[0];
}

describe("parseLibreChatValue", () => {
  it("a linear export: one line, the title, the model per reply, the preset's system prompt, thinking kept", () => {
    const raw = read("librechat-linear.json");
    expect(isLibreChatShaped(raw)).toBe(true);
    const s = ok(raw);
    expect(s.session.title).toBe("Regex for ISO dates");
    expect(s.session.systemPrompt).toBe("You are a terse senior engineer.");
    expect(s.session.importedFrom).toBe("librechat:2b8e4f1a-6c3d-4e5f-9a7b-8c9d0e1f2a3b");
    const all = messages(s);
    expect(all.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(all.map((m) => m.parentId)).toEqual([null, ...all.slice(0, -1).map((m) => m.id)]);
    expect(all[1]?.model).toBe("claude-sonnet-4-5");
    expect(all[1]?.content[0]).toEqual({
      type: "thinking",
      text: "Simple pattern; mention it doesn't validate February.",
    });
    expect(s.session.leafId).toBe(all[3]?.id);
    expect(all[0]?.createdAt).toBe(Date.parse("2026-02-03T08:10:01.120Z"));
  });

  it("a tree export (nested children): both branches, each reply's model, opened on the newest leaf", () => {
    const s = ok(read("librechat-tree.json"));
    const all = messages(s);
    const answers = all.filter((m) => m.parentId === all[0]?.id);
    expect(answers.map((m) => [textOf(m), m.model])).toEqual([
      ["Ash, Smokey, Pebble, Earl Grey.", "gpt-4.1"],
      ["Try Nimbus, Slate or Wisp.", "o4-mini"],
    ]);
    expect(all).toHaveLength(7);
    expect(textOf(all.find((m) => m.id === s.session.leafId))).toBe('"Nim" — or "Bus" on a bad day.');
  });

  it("the same tree listed flat (parentMessageId only) gives the same tree", () => {
    const tree = read("librechat-tree.json") as { messages: Record<string, unknown>[] };
    const flat: Record<string, unknown>[] = [];
    const walk = (list: Record<string, unknown>[]) => {
      for (const m of list) {
        const { children, ...rest } = m as { children?: Record<string, unknown>[] };
        flat.push(rest);
        walk(children ?? []);
      }
    };
    walk(tree.messages);
    const a = ok(tree);
    const b = ok({ ...tree, recursive: false, messages: flat.reverse() });
    const shape = (s: ExportedSession) =>
      messages(s)
        .map((m) => `${textOf(m)} <- ${textOf(messages(s).find((p) => p.id === m.parentId))}`)
        .sort();
    expect(shape(b)).toEqual(shape(a));
  });

  it("a failed reply is an error entry, its text the error; an empty conversation is skipped by title", () => {
    const raw = read("librechat-linear.json") as { messages: Record<string, unknown>[] };
    const last = raw.messages.at(-1);
    if (last) Object.assign(last, { error: true, text: "Error: 529 overloaded", content: undefined });
    const s = ok(raw);
    expect(messages(s).at(-1)).toMatchObject({
      status: "error",
      content: [],
      error: { message: "Error: 529 overloaded" },
    });
    const empty = parseLibreChatValue({ conversationId: "x", title: "Nothing", messages: [] }, ids());
    expect(empty).toEqual({ kind: "ok", sessions: [], skipped: [{ title: "Nothing", reason: "no messages" }] });
  });
});
