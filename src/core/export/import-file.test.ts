import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Session } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { exportGroveJson } from "./grove-json";
import { checkFileSize, IMPORT_LIMITS, parseImportFile } from "./import-file";

const FIXTURES = resolve(__dirname, "../../../../shared/fixtures/real-world");
const fixture = (name: string) => readFileSync(resolve(FIXTURES, name), "utf8");

function oneSession(text: string): string {
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
          content: [{ type: "text", text }],
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
    expect(parseImportFile("[]", "conversations.json")).toEqual({ kind: "ok", format: "chatgpt", sessions: [] });
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
    if (result.kind === "error") expect(result.message).toMatch(/^Chat 1 \("T"\), entry 1: 20,000,001 characters/);
  });
});
