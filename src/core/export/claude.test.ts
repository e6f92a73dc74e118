import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { parseClaudeValue } from "./claude";
import { parseImportFile, parseImportFiles } from "./import-file";

const sampleText = readFileSync(
  fileURLToPath(new URL("../testing/fixtures/claude-export.json", import.meta.url)),
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

describe("parseClaudeValue on a sample Claude.ai export", () => {
  const sessions = ok(JSON.parse(sampleText));
  const [csv, french, empty] = sessions;

  it("turns each conversation into one linear chat, in the list's order, with its title and dates", () => {
    expect(sessions).toHaveLength(3);
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

  it("keeps an attachment's extracted text as a fenced block named by the file, and notes files without text", () => {
    const first = textOf(csv?.entries[0]);
    expect(first).toContain("It stops at the second row.");
    expect(first).toContain('orders.csv:\n\n```text\nid,customer,note\n1,Ada,"first order"');
    expect(textOf(csv?.entries[2])).toContain("[file output.png omitted]");
    expect(textOf(csv?.entries[1])).toContain("```rust");
  });

  it("reads the plain `text` of older exports, names an untitled chat, and keeps an empty conversation as an empty chat", () => {
    expect(french?.session.title).toBe("Imported Claude conversation");
    expect(textOf(french?.entries[1])).toBe("Bonjour !");
    expect(empty?.entries).toEqual([]);
    expect(empty?.session.leafId).toBeNull();
  });

  it("a fence inside the extracted text cannot close the attachment's block", () => {
    const [s] = ok([
      {
        uuid: "u",
        name: "n",
        chat_messages: [
          {
            sender: "human",
            text: "see",
            attachments: [{ file_name: "a.md", extracted_content: "```js\nx\n```" }],
          },
        ],
      },
    ]);
    expect(textOf(s?.entries[0])).toContain("````text\n```js\nx\n```\n````");
  });

  it("says which conversation is malformed and what is wrong", () => {
    const bad = JSON.parse(sampleText) as { chat_messages: { sender: string }[] }[];
    const second = bad[1];
    if (second?.chat_messages[1]) second.chat_messages[1].sender = "robot";
    const r = parseClaudeValue(bad, ids());
    expect(r.kind).toBe("error");
    if (r.kind === "error") expect(r.message).toMatch(/^Claude conversation 2: invalid at chat_messages\.1\.sender/);
    const noUuid = parseClaudeValue([{ name: "Lost", chat_messages: [] }], ids());
    expect(noUuid.kind === "error" && noUuid.message).toMatch(/Claude conversation 1 \("Lost"\): invalid at uuid/);
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
