import { describe, expect, it } from "vitest";
import type { Block, Entry } from "../session/entries";
import { a, branchSummary, compaction, linkPath, u } from "../testing/entries";
import { collectFileOps, fileOpsTags, stripFileOpsTags, withFileOpsTags } from "./file-ops";

const call = (name: string, args: unknown): Block => ({
  type: "tool_call",
  id: `${name}-${JSON.stringify(args)}`,
  name,
  args,
});

describe("collectFileOps", () => {
  it("read → read, write/edit → modified, modified wins, first-seen order", () => {
    const path = linkPath([
      u("u1", "go"),
      a("a1", [call("read", { path: "a.ts" }), call("read", { path: "b.ts" }), call("bash", { command: "ls" })]),
      a("a2", [call("edit", { path: "a.ts" }), call("write", { file_path: "c.ts" }), call("read", { path: "b.ts" })]),
      a("a3", [call("read", {}), call("grep", { path: "d.ts" })]),
    ]);
    expect(collectFileOps(path)).toEqual({ readFiles: ["b.ts"], modifiedFiles: ["a.ts", "c.ts"] });
  });

  it("MCP filesystem tools and their aliases, with a server prefix, several paths, a move; the MCP connector too", () => {
    const connector: Block = {
      type: "server_tool",
      api: "anthropic-messages",
      provider: "anthropic",
      tool: "mcp",
      name: "write_file",
      server: "files",
      part: "use",
      callId: "mcptoolu_1",
      input: { path: "remote.md", content: "x" },
      raw: {},
    };
    const path = linkPath([
      u("u1", "go"),
      a("a1", [
        call("files__read_file", { path: "README.md" }),
        call("mcp.files.read_multiple_files", { paths: ["a.ts", "b.ts"] }),
        call("files/read_text_file", { filePath: "c.ts" }),
        call("list_directory", { path: "." }),
      ]),
      a("a2", [
        call("write_file", { path: "out.txt", content: "x" }),
        call("EDIT_FILE", { path: "a.ts", edits: [] }),
        call("files:move_file", { source: "old.md", destination: "new.md" }),
        call("str_replace", { file_path: "d.ts" }),
        connector,
      ]),
    ]);
    expect(collectFileOps(path)).toEqual({
      readFiles: ["README.md", "b.ts", "c.ts"],
      modifiedFiles: ["out.txt", "a.ts", "old.md", "new.md", "d.ts", "remote.md"],
    });
  });

  it("carries the sets stored on compactions and branch summaries (Grove's and pi's), not extension-written ones", () => {
    const withDetails = (e: Entry, details: unknown): Entry => ({ ...e, details }) as Entry;
    const [k, b, x, msg] = linkPath([
      compaction("k", { summary: "S", firstKept: null }),
      branchSummary("b", "B"),
      compaction("x", { summary: "X", firstKept: null }),
      a("a1", [call("read", { path: "new.ts" }), call("write", { path: "old-read.ts" })]),
    ]);
    const entries = [
      withDetails(k as Entry, { readFiles: ["old-read.ts", "r.ts"], modifiedFiles: ["m.ts"] }),
      withDetails(b as Entry, { kind: "grove-branch-summary", readFiles: ["br.ts"] }),
      withDetails(x as Entry, { fromExtension: true, readFiles: ["ext.ts"] }),
      msg as Entry,
    ];
    expect(collectFileOps(entries)).toEqual({
      readFiles: ["r.ts", "br.ts", "new.ts"],
      modifiedFiles: ["m.ts", "old-read.ts"],
    });
  });
});

describe("file-ops tags", () => {
  const ops = { readFiles: ["a.ts"], modifiedFiles: ["b.ts", "c.ts"] };

  it("appends <read-files> and <modified-files>, and nothing for empty sets", () => {
    expect(withFileOpsTags("Summary.", ops)).toBe(
      "Summary.\n\n<read-files>\na.ts\n</read-files>\n<modified-files>\nb.ts\nc.ts\n</modified-files>",
    );
    expect(fileOpsTags({ readFiles: [], modifiedFiles: ["b.ts"] })).toBe("<modified-files>\nb.ts\n</modified-files>");
    expect(withFileOpsTags("Summary.", { readFiles: [], modifiedFiles: [] })).toBe("Summary.");
  });

  it("strips a previous set so each summary ends in one current set", () => {
    expect(stripFileOpsTags(withFileOpsTags("Summary.", ops))).toBe("Summary.");
  });
});
