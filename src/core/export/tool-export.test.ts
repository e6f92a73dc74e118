/**
 * A tool loop's steps through every export (issue 28): Grove JSON keeps them byte-identical; pi gets
 * `toolCall` / `toolResult` (a result cut for the model written as the model is sent it, the whole
 * text in `grove`; server tools and citations as text pi's model reads, Grove's blocks in `grove`),
 * and the import gives back the same blocks; Markdown and HTML show them (HTML folded), inert.
 */

import { buildSessionContext } from "@mariozechner/pi-coding-agent";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { Entry, MessageEntry, ServerToolBlock, Session, ToolResultBlock } from "../session/entries";
import { toolResultModelText } from "../session/entry-text";
import { asEntryId, asSessionId } from "../session/ids";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "./grove-json";
import { exportHtml } from "./html";
import { exportMarkdown } from "./markdown";
import { exportPiJsonl } from "./pi/export";
import { parsePiJsonl } from "./pi/import";
import { piEntries } from "./pi/testing/pi-sessions";

const S = asSessionId("s-tools");
const HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>';

const SEARCH_USE: ServerToolBlock = {
  type: "server_tool",
  api: "anthropic-messages",
  provider: "anthropic",
  tool: "web_search",
  name: "web_search",
  part: "use",
  callId: "srvtoolu_1",
  input: { query: "grove compaction" },
  raw: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "grove compaction" } },
};
const SEARCH_RESULT: ServerToolBlock = {
  type: "server_tool",
  api: "anthropic-messages",
  provider: "anthropic",
  tool: "web_search",
  name: "web_search",
  part: "result",
  callId: "srvtoolu_1",
  sources: [{ url: "https://example.com/a?x=<b>", title: HOSTILE }],
  raw: {
    type: "web_search_tool_result",
    tool_use_id: "srvtoolu_1",
    content: [{ type: "web_search_result", url: "https://example.com/a", title: "A", encrypted_content: "enc" }],
  },
};
const BIG = `${"line of output\n".repeat(100)}THE END`;
const CUT_RESULT: ToolResultBlock = {
  type: "tool_result",
  callId: "toolu_2",
  toolName: "read_file",
  text: BIG,
  isError: false,
  shownChars: 45,
};

function sample(): ExportedSession {
  const session: Session = {
    id: S,
    title: "Tools",
    titleSource: "user",
    createdAt: 1000,
    updatedAt: 5000,
    leafId: asEntryId("a2"),
  };
  const m = (id: string, parent: string | null, t: number, rest: Partial<MessageEntry>): Entry =>
    ({
      type: "message",
      id: asEntryId(id),
      sessionId: S,
      parentId: parent === null ? null : asEntryId(parent),
      createdAt: t,
      status: "complete",
      content: [],
      role: "user",
      ...rest,
    }) as MessageEntry;
  const reply = { provider: "anthropic", api: "anthropic-messages" as const, model: "claude-x" };
  return {
    session,
    labels: {},
    entries: [
      m("u1", null, 1000, { content: [{ type: "text", text: "Search, then read two files." }] }),
      m("a1", "u1", 2000, {
        role: "assistant",
        ...reply,
        stopReason: "tool_use",
        content: [
          SEARCH_USE,
          SEARCH_RESULT,
          {
            type: "text",
            text: "Grove compacts.",
            citations: [{ url: "https://example.com/a", title: "A", citedText: "compacts" }],
          },
          { type: "tool_call", id: "toolu_1", name: "read_file", args: { path: "a.txt" } },
          { type: "tool_call", id: "toolu_2", name: "read_file", args: { path: "big.log" } },
        ],
      }),
      m("t1", "a1", 3000, {
        role: "tool",
        content: [{ type: "tool_result", callId: "toolu_1", toolName: "read_file", text: HOSTILE, isError: false }],
      }),
      m("t2", "t1", 3001, { role: "tool", content: [CUT_RESULT] }),
      m("a2", "t2", 4000, {
        role: "assistant",
        ...reply,
        stopReason: "end",
        content: [{ type: "text", text: "Done." }],
      }),
    ],
  };
}

describe("tool steps in exports", () => {
  it("Grove JSON: export → import → export is byte-identical, every tool field kept", () => {
    const text = exportGroveJson([sample()]);
    const back = parseGroveJson(text);
    if (back.kind !== "ok") throw new Error(back.message);
    expect(exportGroveJson(back.sessions)).toBe(text);
    expect(back.sessions[0]?.entries).toEqual(sample().entries);
  });

  it("Grove JSON keeps a code execution's produced files, an image output's URL too", () => {
    const chart: ServerToolBlock = {
      type: "server_tool",
      api: "openai-responses",
      provider: "openai",
      tool: "code_execution",
      name: "code_interpreter",
      part: "item",
      callId: "ci_1",
      input: { code: "plot()" },
      output: "",
      produced: [
        { fileId: "ci_1/image-1", url: "data:image/png;base64,iVBORw0KGgo=" },
        { fileId: "cfile_1", containerId: "cntr_1", name: "chart.png" },
      ],
      raw: { type: "code_interpreter_call", id: "ci_1" },
    };
    const base = sample();
    const entries = base.entries.map((e) =>
      e.id === asEntryId("a2") && e.type === "message" ? { ...e, content: [chart, ...e.content] } : e,
    );
    const back = parseGroveJson(exportGroveJson([{ ...base, entries }]));
    if (back.kind !== "ok") throw new Error(back.message);
    expect(back.sessions[0]?.entries).toEqual(entries);
  });

  it("Grove JSON import rejects a malformed server tool block", () => {
    const doc = JSON.parse(exportGroveJson([sample()])) as {
      sessions: Array<{ entries: Array<{ content?: Array<Record<string, unknown>> }> }>;
    };
    const block = doc.sessions[0]?.entries[1]?.content?.[0];
    if (!block) throw new Error("no server tool block");
    block.part = "halfway";
    expect(parseGroveJson(JSON.stringify(doc)).kind).toBe("error");
  });

  it("pi: toolCall / toolResult, the cut result as the model sees it, and back to the same entries", () => {
    const jsonl = exportPiJsonl(sample());
    const lines = jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { message?: { role: string; content: Array<Record<string, unknown>> } });
    const reply = lines.find((l) => l.message?.role === "assistant")?.message;
    expect(reply?.content.map((b) => b.type)).toEqual(["text", "text", "text", "toolCall", "toolCall"]);
    expect(reply?.content[3]).toEqual({
      type: "toolCall",
      id: "toolu_1",
      name: "read_file",
      arguments: { path: "a.txt" },
    });
    const results = lines.filter((l) => l.message?.role === "toolResult").map((l) => l.message);
    expect(results[1]?.content).toEqual([{ type: "text", text: toolResultModelText(CUT_RESULT) }]);

    const back = parsePiJsonl(jsonl);
    if (back.kind !== "ok") throw new Error(back.message);
    const contents = back.sessions[0]?.entries.map((e) => (e.type === "message" ? e.content : null));
    expect(contents).toEqual(sample().entries.map((e) => (e.type === "message" ? e.content : null)));
  });

  it("pi's own context builder reads the tool steps as Grove's model does", () => {
    const context = buildSessionContext(piEntries(exportPiJsonl(sample())));
    const roles = context.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
    const cut = context.messages[3];
    if (cut?.role !== "toolResult") throw new Error("expected a tool result");
    expect(cut.toolCallId).toBe("toolu_2");
    const text = cut.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text).toBe(toolResultModelText(CUT_RESULT));
    expect(text).toContain("[Output truncated: the model is shown the first 45 of 1507 characters]");
    expect(text).not.toContain("THE END");
  });

  it("Markdown shows the steps as text; HTML folds them in <details>; both inert", () => {
    const md = exportMarkdown(sample(), { allBranches: false });
    expect(md).toContain("**Web search**");
    expect(md).toContain("**Tool call: read\\_file**");
    expect(md).toContain("THE END");
    // Rendered, the hostile result and source title are text (fenced or escaped), never elements.
    const rendered = marked.parse(md, { async: false });
    expect(rendered).not.toContain("<script>");
    expect(rendered).not.toContain("<img");
    const html = exportHtml(sample(), { now: 0 });
    expect(html).toContain('<details class="server-tool"><summary class="tool-name">Web search</summary>');
    expect(html).toContain('<details class="tool-call"><summary class="tool-name">Tool call: read_file</summary>');
    expect(html).toContain('<details class="tool-result"><summary class="tool-name">Tool result: read_file</summary>');
    expect(html).toContain("https://example.com/a?x=&lt;b&gt;");
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
  });
});
