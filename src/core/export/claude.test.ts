import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Entry, MessageEntry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { parseClaudeValue } from "./claude";
import type { ExportedSession } from "./grove-json";
import { parseImportFile, parseImportFiles } from "./import-file";

const sampleText = readFileSync(
  fileURLToPath(new URL("../testing/fixtures/claude-export.json", import.meta.url)),
  "utf8",
);
const claude2026 = readFileSync(
  fileURLToPath(new URL("./testing/fixtures/claude-2026-conversations.json", import.meta.url)),
  "utf8",
);

function ids() {
  let e = 0;
  let s = 0;
  return { newEntryId: () => asEntryId(`e${++e}`), newSessionId: () => asSessionId(`s${++s}`), now: () => 42 };
}

const textOf = (e: Entry | undefined): string =>
  e?.type === "message" ? e.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";

function ok(raw: unknown) {
  const r = parseClaudeValue(raw, ids());
  if (r.kind !== "ok") throw new Error(r.message);
  return r.sessions;
}

describe("parseClaudeValue on a sample Claude.ai export (2025, no parent links)", () => {
  const r = parseClaudeValue(JSON.parse(sampleText), ids());
  if (r.kind !== "ok") throw new Error(r.message);
  const [csv, french] = r.sessions;

  it("turns each conversation into one linear chat, in the list's order, with its title and dates; skips the empty one", () => {
    expect(r.sessions).toHaveLength(2);
    expect(r.skipped).toEqual([{ title: "Untitled draft", reason: "no messages" }]);
    expect(csv?.session.title).toBe("Parsing CSV in Rust");
    expect(csv?.session.createdAt).toBe(Date.parse("2025-03-14T09:12:03.441829Z"));
    expect(csv?.session.updatedAt).toBe(Date.parse("2025-03-14T09:20:41.118203Z"));
    expect(csv?.session.importedFrom).toBe("claude:5d3f8a1c-2b7e-4c1a-9f0e-1a2b3c4d5e6f");
    const entries = csv?.entries ?? [];
    expect(entries.map((e) => (e.type === "message" ? e.role : e.type))).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    // Linear: each entry's parent is the one before; the leaf is the last.
    expect(entries.map((e) => e.parentId)).toEqual([null, ...entries.slice(0, -1).map((e) => e.id)]);
    expect(csv?.session.leafId).toBe(entries.at(-1)?.id);
    expect(entries[0]?.createdAt).toBe(Date.parse("2025-03-14T09:12:04.002318Z"));
  });

  it("keeps an attachment's extracted text as a text-file block under its name, exactly, and names files without text", () => {
    const first = csv?.entries[0];
    expect(first?.type === "message" && first.content).toEqual([
      { type: "text", text: "Why does my parser choke on this file? It stops at the second row." },
      {
        type: "text_file",
        name: "orders.csv",
        mimeType: "text/csv",
        text: 'id,customer,note\n1,Ada,"first order"\n2,Grace,"says ""hi"""\n3,Linus,plain',
      },
    ]);
    expect(textOf(csv?.entries[2])).toBe(
      "Thanks, that works. Here's a screenshot of the output.\n\n[file: output.png — not in the export]",
    );
    expect(textOf(csv?.entries[1])).toContain("```rust");
  });

  it("reads the plain `text` of older exports and names an untitled chat", () => {
    expect(french?.session.title).toBe("Imported Claude conversation");
    expect(textOf(french?.entries[1])).toBe("Bonjour !");
  });

  it("a fence inside the extracted text is the file's own text, not markup of the message", () => {
    const [s] = ok([
      {
        uuid: "u",
        name: "n",
        chat_messages: [
          {
            sender: "human",
            text: "see",
            attachments: [{ file_name: "a.md", file_type: "txt", extracted_content: "```js\nx\n```" }],
          },
        ],
      },
    ]);
    const m = s?.entries[0];
    expect(m?.type === "message" && m.content[1]).toEqual({
      type: "text_file",
      name: "a.md",
      mimeType: "text/plain",
      text: "```js\nx\n```",
    });
  });

  it("passes over a message it cannot read, and still imports a conversation without a uuid", () => {
    const bad = JSON.parse(sampleText) as { chat_messages: { sender: string }[] }[];
    const second = bad[1];
    if (second?.chat_messages[1]) second.chat_messages[1].sender = "robot";
    const r2 = parseClaudeValue(bad, ids());
    if (r2.kind !== "ok") throw new Error(r2.message);
    expect(r2.sessions[1]?.entries).toHaveLength(1);
    const noUuid = parseClaudeValue([{ name: "Lost", chat_messages: [{ sender: "human", text: "hi" }] }], ids());
    expect(noUuid).toMatchObject({ kind: "ok", sessions: [{ session: { title: "Lost" } }] });
    expect(noUuid.kind === "ok" && noUuid.sessions[0]?.session.importedFrom).toBeUndefined();
    expect(parseClaudeValue({ not: "a list" }, ids())).toMatchObject({ kind: "error", message: /Not a Claude export/ });
  });
});

describe("parseClaudeValue on a 2026 Claude.ai export (parent links, thinking, tools)", () => {
  const r = parseClaudeValue(JSON.parse(claude2026), ids());
  if (r.kind !== "ok") throw new Error(r.message);
  const [starter, heat, old] = r.sessions;
  const messages = (s: ExportedSession | undefined) =>
    (s?.entries ?? []).filter((e): e is MessageEntry => e.type === "message");

  it("skips the stubs (no chat_messages, an empty list) by name, and imports the rest", () => {
    expect(r.sessions.map((s) => s.session.title)).toEqual([
      "Sourdough starter smells like acetone",
      "Heat pumps in cold climates",
      "Imported Claude conversation",
    ]);
    expect(r.skipped).toEqual([
      { title: "Broken record", reason: "no messages" },
      { title: "Corrupted entry", reason: "no messages" },
    ]);
  });

  it("builds the tree from parent_message_uuid: a retried reply and an edited question are siblings", () => {
    const all = messages(starter);
    const question = all[0];
    const replies = all.filter((m) => m.parentId === question?.id);
    expect(replies.map((m) => m.role)).toEqual(["assistant", "assistant"]);
    expect(textOf(replies[1])).toMatch(/^It's very likely fine/);
    const edits = all.filter((m) => m.parentId === replies[1]?.id);
    expect(edits.map(textOf)).toEqual([
      "Ok. Here's my feeding log, how often should I feed it?",
      "Ok. How often should I feed it in a warm kitchen, about 26 °C?",
    ]);
  });

  it("opens on the newest leaf: the answer to the edited question", () => {
    const leaf = messages(starter).find((m) => m.id === starter?.session.leafId);
    expect(textOf(leaf)).toBe("At 26 °C, twice a day, roughly every 12 hours.");
  });

  it("keeps thinking as thinking, and the attachment's text as a text-file block", () => {
    expect(messages(starter)[1]?.content[0]).toEqual({
      type: "thinking",
      text: "An acetone smell in a starter usually means the yeast has run out of food and the bacteria are producing ethyl acetate. It is almost never dead.",
    });
    expect(messages(starter)[3]?.content[1]).toMatchObject({
      type: "text_file",
      name: "feeding-log.csv",
      mimeType: "text/csv",
    });
  });

  it("keeps a web search as a tool call and its result, in order with the thinking and the text; names the image", () => {
    const [question, answer] = messages(heat);
    expect(textOf(question)).toBe(
      "Will an air-source heat pump work in my house? Floor plan and the installer's quote attached.\n\n[file: floorplan.png — not in the export]",
    );
    expect(question?.content[1]).toMatchObject({
      type: "text_file",
      name: "quote-2026-01.pdf",
      mimeType: "text/plain",
      text: expect.stringContaining("Daikin Altherma 3 H HT"),
    });
    expect(answer?.content.map((b) => b.type)).toEqual(["thinking", "tool_call", "tool_result", "text"]);
    const [, call, result] = answer?.content ?? [];
    expect(call).toMatchObject({ name: "web_search", args: { query: "Daikin Altherma 3 H HT cold climate COP -15" } });
    expect(result).toEqual({
      type: "tool_result",
      callId: call?.type === "tool_call" ? call.id : "",
      toolName: "web_search",
      text: "COP 2.1 at -15 °C outdoor, 55 °C flow.",
      isError: false,
    });
  });

  it("reads an export without parent links as one line", () => {
    const [q, a] = messages(old);
    expect(a?.parentId).toBe(q?.id);
    expect(old?.session.leafId).toBe(a?.id);
  });
});

const chatgpt = (id: string, title: string) => ({
  id,
  title,
  create_time: 1_700_000_000,
  mapping: {
    root: { id: "root", message: null, parent: null, children: ["m1"] },
    m1: {
      id: "m1",
      parent: "root",
      children: [],
      message: {
        id: "m1",
        author: { role: "user" },
        create_time: 1_700_000_001,
        content: { content_type: "text", parts: [`hi ${title}`] },
      },
    },
  },
});

describe("sniffing and several files", () => {
  it("tells a Claude export (items with chat_messages) from a ChatGPT one (items with mapping)", () => {
    const claude = parseImportFile(sampleText, "conversations.json", ids());
    expect(claude.kind === "ok" && claude.format).toBe("claude");
    const gpt = parseImportFile(JSON.stringify([chatgpt("c1", "One")]), "conversations.json", ids());
    expect(gpt.kind === "ok" && gpt.format).toBe("chatgpt");
  });

  it("merges split ChatGPT files into one import", () => {
    const r = parseImportFiles(
      [
        { name: "conversations-000.json", text: JSON.stringify([chatgpt("c1", "One"), chatgpt("c2", "Two")]) },
        { name: "conversations-001.json", text: JSON.stringify([chatgpt("c3", "Three")]) },
      ],
      ids(),
    );
    if (r.kind !== "ok") throw new Error(r.message);
    expect(r.format).toBe("chatgpt");
    expect(r.sessions.map((s) => s.session.title)).toEqual(["One", "Two", "Three"]);
    expect(r.sessions.map((s) => s.session.importedFrom)).toEqual(["chatgpt:c1", "chatgpt:c2", "chatgpt:c3"]);
  });

  it("gathers what each split file skipped", () => {
    const r = parseImportFiles(
      [
        { name: "conversations-000.json", text: JSON.stringify([chatgpt("c1", "One"), { title: "Stub A" }]) },
        { name: "conversations-001.json", text: JSON.stringify([{ title: "Stub B" }, chatgpt("c2", "Two")]) },
      ],
      ids(),
    );
    if (r.kind !== "ok") throw new Error(r.message);
    expect(r.sessions.map((s) => s.session.title)).toEqual(["One", "Two"]);
    expect(r.skipped).toEqual([
      { title: "Stub A", reason: "no messages" },
      { title: "Stub B", reason: "no messages" },
    ]);
  });

  it("a malformed file among several fails the whole import, naming that file", () => {
    const r = parseImportFiles(
      [
        { name: "conversations-000.json", text: JSON.stringify([chatgpt("c1", "One")]) },
        { name: "conversations-001.json", text: "[{" },
      ],
      ids(),
    );
    expect(r.kind === "error" && r.message).toMatch(/^conversations-001\.json: /);
  });
});
