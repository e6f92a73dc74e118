import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Block, Session } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { exportGroveJson } from "./grove-json";
import { checkFileSize, entryChars, IMPORT_LIMITS, parseImportFile } from "./import-file";
import { checkJsonShape, JSON_SHAPE_LIMITS } from "./json-shape";

const FIXTURES = resolve(__dirname, "../../../../shared/fixtures/real-world");
const fixture = (name: string) => readFileSync(resolve(FIXTURES, name), "utf8");
const sample = (name: string) => readFileSync(resolve(__dirname, "testing/fixtures", name), "utf8");

function oneSession(text: string, blocks?: readonly Block[]): string {
  const id = asSessionId("s1");
  const session: Session = { id, title: "T", titleSource: "user", createdAt: 1, updatedAt: 1, leafId: asEntryId("e1") };
  return exportGroveJson([
    {
      session,
      entries: [
        {
          type: "message",
          id: asEntryId("e1"),
          sessionId: id,
          parentId: null,
          createdAt: 1,
          role: "user",
          content: blocks ? [...blocks] : [{ type: "text", text }],
          status: "complete",
        },
      ],
      labels: {},
    },
  ]);
}

describe("parseImportFile: the format is found from the content", () => {
  it.each([
    ["pi-session-v1-with-compactions.jsonl", "pi-jsonl"],
    ["pi-session-v1-large.jsonl", "pi-jsonl"],
    ["chatgpt-tree.json", "chatgpt"],
  ])("%s is read as %s, whatever its name", (name, format) => {
    const result = parseImportFile(fixture(name), "download");
    expect(result.kind === "ok" ? result.format : result.message).toBe(format);
  });

  it("a Grove export, also with a byte-order mark, and minified on one line", () => {
    const text = oneSession("hello");
    expect(parseImportFile(text, "x.json")).toMatchObject({ kind: "ok", format: "grove-json" });
    expect(parseImportFile(`\ufeff${text}`, "x.json")).toMatchObject({ kind: "ok", format: "grove-json" });
    expect(parseImportFile(JSON.stringify(JSON.parse(text)), "x.json")).toMatchObject({
      kind: "ok",
      format: "grove-json",
    });
  });

  it("an empty ChatGPT list is a ChatGPT export with no chats", () => {
    expect(parseImportFile("[]", "conversations.json")).toEqual({
      kind: "ok",
      format: "chatgpt",
      sessions: [],
      skipped: [],
    });
  });

  it.each([
    ["", "x.json", "empty"],
    ["   \n", "x.json", "empty"],
    ['{"format":"other-app","data":[]}', "x.json", 'Unknown file format "other-app"'],
    ["[1, 2, 3]", "x.json", "Unknown file format"],
    ['{"a":1}\n{"b":2}\n', "notes.jsonl", "notes.jsonl is not a pi session"],
    ["<html></html>", "page.html", "not valid JSON"],
  ])("%j (%s) is refused: %s", (text, name, message) => {
    const result = parseImportFile(text, name);
    expect(result.kind).toBe("error");
    if (result.kind === "error") expect(result.message).toContain(message);
  });

  it.each([
    ["chatgpt-2026-conversations.json", "chatgpt"],
    ["claude-2026-conversations.json", "claude"],
    ["open-webui-export.json", "open-webui"],
    ["librechat-linear.json", "librechat"],
    ["librechat-tree.json", "librechat"],
    ["chatbot-ui-export.json", "chatbot-ui"],
  ])("the sample %s is read as %s, whatever its name, with what it skipped", (name, format) => {
    const result = parseImportFile(sample(name), "export.json");
    expect(result.kind === "ok" ? result.format : result.message).toBe(format);
    expect(result.kind === "ok" && result.sessions.length).toBeGreaterThan(0);
  });

  it("a ChatGPT list whose first conversation is a stub is still a ChatGPT export", () => {
    const result = parseImportFile(
      JSON.stringify([{ title: "Stub" }, ...JSON.parse(fixture("chatgpt-tree.json"))]),
      "c.json",
    );
    expect(result).toMatchObject({
      kind: "ok",
      format: "chatgpt",
      skipped: [{ title: "Stub", reason: "no messages" }],
    });
  });

  it("a file with nothing readable is refused, naming the format it looked like and what was wrong with each", () => {
    const stubs = JSON.stringify([
      { title: "Corrupted entry", mapping: null },
      { title: "Broken record", mapping: {} },
    ]);
    expect(parseImportFile(stubs, "conversations.json")).toEqual({
      kind: "error",
      message:
        'This looks like a ChatGPT export, but none of its 2 conversations could be read (no messages: "Corrupted entry", "Broken record").',
    });
    const claude = JSON.stringify([{ uuid: "u", name: "Draft", chat_messages: [] }]);
    expect(parseImportFile(claude, "conversations.json")).toEqual({
      kind: "error",
      message: 'This looks like a Claude export, but its one conversation could not be read (no messages: "Draft").',
    });
  });

  it.each([
    ["chat.md", "# Plan a weekend trip\n\n**User:** hi"],
    ["notes.markdown", "just words"],
    ["export.txt", "# A heading\n\nSome text"],
    ["export", "**You:** hello\n\n**ChatGPT:** hi"],
  ])("a Markdown file (%s) is refused, naming every format Grove imports", (name, text) => {
    const result = parseImportFile(text, name);
    expect(result.kind === "error" && result.message).toBe(
      "Markdown can't be imported; Grove imports Grove JSON exports; a ChatGPT data export (conversations.json, its split conversations-000.json… files, or the export .zip with its images); a Claude.ai export's conversations.json; Open WebUI chat exports (.json); LibreChat conversation exports (.json); chatbot-ui exports (.json); and pi session .jsonl files.",
    );
  });

  it("a pi file with a broken line names the line", () => {
    const lines = fixture("pi-session-v1-large.jsonl").split("\n");
    lines[3] = `${lines[3]!.slice(0, 40)}`;
    const result = parseImportFile(lines.join("\n"), "s.jsonl");
    expect(result.kind).toBe("error");
    if (result.kind === "error") expect(result.message).toMatch(/[Ll]ine 4/);
  });
});

describe("absurd sizes", () => {
  it("a file over the byte limit, and an empty one, are refused before reading", () => {
    expect(checkFileSize(IMPORT_LIMITS.maxFileBytes + 1)).toContain("up to 500.0 MB");
    expect(checkFileSize(0)).toBe("The file is empty.");
    expect(checkFileSize(10)).toBeNull();
  });

  it("one message beyond the character limit is refused, naming the chat and the entry", () => {
    const result = parseImportFile(oneSession("x".repeat(IMPORT_LIMITS.maxEntryChars + 1)), "big.json");
    expect(result.kind).toBe("error");
    if (result.kind === "error")
      expect(result.message).toMatch(/^Chat 1 \("T"\), entry 1: more than 20,000,000 characters/);
  });

  it("characters hidden in tool-call arguments count toward the entry limit (30M passed before)", () => {
    const chunk = "y".repeat(3_000_000);
    const args = { a: chunk, nested: { list: Array.from({ length: 9 }, () => ({ deep: [chunk] })) } };
    const file = oneSession("", [
      { type: "text", text: "short" },
      { type: "tool_call", id: "c1", name: "t", args },
    ]);
    const result = parseImportFile(file, "args.json");
    expect(result.kind === "error" ? result.message : result.kind).toMatch(/entry 1: more than 20,000,000 characters/);
  });

  it("entryChars counts every string, keys and nested data included, and stops once past the limit", () => {
    expect(entryChars({ type: "x", data: [{ k: "abc" }, ["de", 1, null, true]] })).toBe(4 + 1 + 4 + 1 + 3 + 2);
    expect(entryChars({ big: "z".repeat(100), more: "z".repeat(100) }, 50)).toBeLessThan(210);
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(entryChars(deep)).toBe(4);
  });

  it("50 MB of nested arrays is refused by its shape, before any parse", () => {
    const deep = `${"[".repeat(25_000_000)}${"]".repeat(25_000_000)}`;
    const wide = `[${"[],".repeat(16_000_000)}[]]`;
    // A parse of either takes tens of seconds: the scan must refuse it before JSON.parse sees it.
    const parse = vi.spyOn(JSON, "parse");
    try {
      for (const text of [deep, wide]) {
        const result = parseImportFile(text, "nested.json");
        expect(result.kind === "error" ? result.message : result.kind).toMatch(
          /nests more than 200 levels|objects and arrays/,
        );
      }
      expect(parse.mock.calls.filter(([text]) => text.length > 1_000_000)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  }, 120_000);

  it("checkJsonShape: depth and container density, brackets inside strings ignored", () => {
    const L = JSON_SHAPE_LIMITS;
    expect(checkJsonShape(`${"[".repeat(L.maxDepth)}${"]".repeat(L.maxDepth)}`)).toBeNull();
    expect(checkJsonShape(`${"[".repeat(L.maxDepth + 1)}`)).toMatch(/nests more than 200 levels/);
    expect(checkJsonShape(JSON.stringify({ s: "[".repeat(1000), t: 'a\\"[[[' }))).toBeNull();
    expect(checkJsonShape(`{"a":"\\\\"}${"[".repeat(L.maxDepth + 1)}`)).toMatch(/nests/);
    const dense = `[${"{},".repeat(L.freeContainers)}{}]`;
    expect(checkJsonShape(dense)).toMatch(/objects and arrays/);
    const wordy = `[${`{"text":"${"w".repeat(20)}"},`.repeat(L.freeContainers)}{}]`;
    expect(checkJsonShape(wordy)).toBeNull();
  });

  it("real exports pass the shape check", () => {
    for (const name of ["pi-session-v1-large.jsonl", "chatgpt-tree.json", "pi-session-v1-with-compactions.jsonl"]) {
      expect(checkJsonShape(fixture(name))).toBeNull();
    }
  });
});
