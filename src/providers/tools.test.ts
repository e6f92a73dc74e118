/**
 * The adapters with tools (issue 28), end to end over HTTP: the real SDKs (in Node) against the e2e
 * mock provider, which speaks each wire format and rejects split tool pairs as the APIs do. Each api:
 * definitions sent, calls streamed as `toolcall_*` events into `tool_call` blocks, a stop that says
 * tools were called, the pair sent back natively and accepted; server tools as `server_tool` blocks.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, requestTools, startMockServer } from "../../e2e/mock-server/index";
import { runAgentLoop } from "../core/agent/agent-loop";
import type { FunctionToolSpec, ToolSpec } from "../core/agent/tool-spec";
import type { StepStreamFn } from "../core/agent/types";
import { buildContext } from "../core/session/build-context";
import { producedFiles } from "../core/session/code-files";
import type { ContextMessage, LlmContext } from "../core/session/context";
import type { ApiKind, Entry, MessageEntry, ServerToolBlock, ToolCallBlock } from "../core/session/entries";
import { asEntryId, asSessionId } from "../core/session/ids";
import { createAnthropicStream } from "./anthropic";
import { createOpenAIStream } from "./openai";
import { createOpenAIResponsesStream } from "./openai-responses";
import { collect, testProvider, testRequest, types } from "./testing/requests";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "./types";

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 0 } });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
});

const READ: FunctionToolSpec = {
  kind: "function",
  name: "read_file",
  description: "Read a file",
  parameters: { properties: { path: { type: "string" } }, required: ["path"] },
};

const ADAPTERS: Record<ApiKind, StreamFn> = {
  "anthropic-messages": createAnthropicStream(),
  "openai-chat": createOpenAIStream(),
  "openai-responses": createOpenAIResponsesStream(),
};
const MOCK_API = (api: ApiKind) => (api === "anthropic-messages" ? "anthropic" : "openai");

function request(api: ApiKind, patch: Partial<StreamRequest> = {}): StreamRequest {
  const baseUrl = api === "anthropic-messages" ? mock.anthropicBaseUrl : mock.openaiBaseUrl;
  return testRequest(api, {
    provider: testProvider(api, { baseUrl }),
    model: api === "openai-responses" ? "gpt-5" : api === "openai-chat" ? "gpt-4o" : "claude-haiku-4-5",
    tools: [READ],
    ...patch,
  });
}

async function run(api: ApiKind, patch: Partial<StreamRequest> = {}) {
  const events = await collect<StreamEvent>(ADAPTERS[api](request(api, patch)));
  const end = events.at(-1);
  if (end?.type !== "done") throw new Error(`stream ended with ${JSON.stringify(end)}`);
  return { events, partial: end.partial };
}

const calls = (p: AssistantPartial) => p.content.filter((b): b is ToolCallBlock => b.type === "tool_call");
const servers = (p: AssistantPartial) => p.content.filter((b): b is ServerToolBlock => b.type === "server_tool");

/** The context of one finished step and its tools' results: what the loop sends next. */
function nextContext(partial: AssistantPartial, results: Record<string, string>): LlmContext {
  const messages: ContextMessage[] = [
    { role: "user", content: [{ type: "text", text: "Read a and b." }] },
    { role: "assistant", content: partial.content.filter((b) => b.type !== "thinking" && b.type !== "reasoning") },
  ];
  const answers = calls(partial).map((c) => ({
    type: "tool_result" as const,
    callId: c.id,
    toolName: c.name,
    text: results[c.name] ?? "",
    isError: false,
  }));
  if (answers.length > 0) messages.push({ role: "user", content: answers });
  else messages.push({ role: "user", content: [{ type: "text", text: "And?" }] });
  return { system: "", messages };
}

describe.each(["anthropic-messages", "openai-chat", "openai-responses"] as const)("%s with function tools", (api) => {
  it("sends the definitions, streams two parallel calls, and stops for their results", async () => {
    mock.enqueue(MOCK_API(api), {
      toolCalls: [
        { name: "read_file", input: { path: "a.txt" } },
        { name: "read_file", input: { path: "b/c.md" } },
      ],
    });
    const { events, partial } = await run(api);
    const [rec] = mock.requests({ api: MOCK_API(api) });
    if (!rec) throw new Error("no request");
    expect(requestTools(rec)).toEqual([{ kind: "function", name: "read_file", description: "Read a file" }]);

    expect(partial.stopReason).toBe("tool_use");
    expect(calls(partial).map((c) => [c.name, c.args])).toEqual([
      ["read_file", { path: "a.txt" }],
      ["read_file", { path: "b/c.md" }],
    ]);
    const kinds = types(events).filter((t) => t.startsWith("toolcall"));
    expect(kinds.filter((t) => t === "toolcall_start")).toHaveLength(2);
    expect(kinds.filter((t) => t === "toolcall_end")).toHaveLength(2);
    expect(kinds.filter((t) => t === "toolcall_delta").length).toBeGreaterThan(2);
    // Every tool event points at its block in the partial.
    for (const e of events) {
      if (e.type === "toolcall_start" || e.type === "toolcall_delta" || e.type === "toolcall_end") {
        expect(e.partial.content[e.index]?.type).toBe("tool_call");
      }
    }
    const end = events.find((e) => e.type === "toolcall_end");
    expect(end?.type === "toolcall_end" ? end.toolCall.args : null).toEqual({ path: "a.txt" });
    if (api === "openai-responses") expect(calls(partial)[0]?.id).toMatch(/^call_mock\d+\|fc_mock\d+$/);
  });

  it("sends the calls and their results back as tool messages, which the API accepts", async () => {
    mock.enqueue(
      MOCK_API(api),
      { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
      { text: "The file says hello.", match: { lastToolResult: "hello" } },
    );
    const first = await run(api);
    const second = await run(api, { context: nextContext(first.partial, { read_file: "hello" }) });
    expect(second.partial.content).toEqual([{ type: "text", text: "The file says hello." }]);
    expect(second.partial.stopReason).toBe("end");
    const sent = mock.requests({ api: MOCK_API(api) })[1];
    expect(sent?.status).toBe(200);
    const body = JSON.stringify(sent?.body);
    if (api === "anthropic-messages") {
      expect(body).toContain('"type":"tool_use"');
      expect(body).toContain('"type":"tool_result"');
    } else if (api === "openai-chat") {
      expect(body).toContain('"tool_calls"');
      expect(body).toContain('"role":"tool"');
    } else {
      expect(body).toContain('"type":"function_call"');
      expect(body).toContain('"type":"function_call_output"');
      // The item id the API issued goes back with the call; the call id alone pairs the output.
      expect(body).toMatch(/"id":"fc_mock\d+"/);
    }
  });
});

describe("anthropic server tools", () => {
  const ANTHROPIC = "anthropic-messages" as const;

  it("web search: the use and its results as server tool blocks, citations on the text, sent back verbatim", async () => {
    mock.enqueue("anthropic", {
      serverTools: [
        { kind: "web_search", query: "grove", results: [{ url: "https://example.com/g", title: "Grove docs" }] },
      ],
      text: "Grove is a chat app.",
      citations: [{ url: "https://example.com/g", title: "Grove docs", citedText: "a chat app" }],
    });
    const { events, partial } = await run(ANTHROPIC, { tools: [{ kind: "web_search", maxUses: 2 }] });
    const [rec] = mock.requests({ api: "anthropic" });
    if (!rec) throw new Error("no request");
    expect(requestTools(rec)).toEqual([{ kind: "web_search_20250305", name: "web_search" }]);
    expect((rec.body as { tools: Array<{ max_uses?: number }> }).tools[0]?.max_uses).toBe(2);

    const [use, result] = servers(partial);
    expect(use).toMatchObject({ tool: "web_search", part: "use", input: { query: "grove" }, provider: "anthropic" });
    expect(use?.raw).toMatchObject({ type: "server_tool_use", input: { query: "grove" } });
    expect(result).toMatchObject({
      tool: "web_search",
      part: "result",
      callId: use?.callId,
      sources: [{ url: "https://example.com/g", title: "Grove docs" }],
    });
    expect(types(events).filter((t) => t === "server_tool")).toHaveLength(2);
    expect(partial.content.at(-1)).toEqual({
      type: "text",
      text: "Grove is a chat app.",
      citations: [{ url: "https://example.com/g", title: "Grove docs", citedText: "a chat app" }],
    });
    expect(partial.stopReason).toBe("end");

    mock.enqueue("anthropic", { text: "Again." });
    const again = await run(ANTHROPIC, { context: nextContext(partial, {}), tools: [{ kind: "web_search" }] });
    expect(again.partial.content).toEqual([{ type: "text", text: "Again." }]);
    const body = mock.requests({ api: "anthropic" })[1]?.body as { messages: Array<{ content: unknown[] }> };
    expect(body.messages[1]?.content).toEqual([use?.raw, result?.raw, { type: "text", text: "Grove is a chat app." }]);
  });

  it("code execution and web fetch: readable output, files, the tools' types", async () => {
    mock.enqueue("anthropic", {
      serverTools: [
        { kind: "code_execution", code: "ls", stdout: "a.txt\n", stderr: "warn", files: ["file_9"] },
        { kind: "web_fetch", url: "https://example.com/doc", title: "Doc", text: "Body." },
      ],
      text: "Done.",
    });
    const { partial } = await run(ANTHROPIC, { tools: [{ kind: "code_execution" }, { kind: "web_fetch" }] });
    const [rec] = mock.requests({ api: "anthropic" });
    expect(rec ? requestTools(rec).map((t) => t.kind) : []).toEqual(["code_execution_20250825", "web_fetch_20250910"]);
    const results = servers(partial).filter((b) => b.part === "result");
    expect(results[0]).toMatchObject({
      tool: "code_execution",
      name: "bash_code_execution",
      output: "a.txt\n\n[stderr]\nwarn",
      files: ["file_9"],
      produced: [{ fileId: "file_9" }],
    });
    expect(results[1]).toMatchObject({
      tool: "web_fetch",
      output: "Body.",
      sources: [{ url: "https://example.com/doc", title: "Doc" }],
    });
  });

  it("MCP connector: mcp_servers with the token, its beta, mcp use and result blocks", async () => {
    mock.enqueue("anthropic", {
      serverTools: [{ kind: "mcp", server: "files", name: "read_file", input: { path: "a" }, output: "hi" }],
      text: "It says hi.",
    });
    const mcp: ToolSpec = { kind: "mcp", name: "files", url: "https://mcp.example.com/mcp", authorizationToken: "tok" };
    const { partial } = await run(ANTHROPIC, { tools: [mcp] });
    const [rec] = mock.requests({ api: "anthropic" });
    if (!rec) throw new Error("no request");
    expect(rec.headers["anthropic-beta"]).toContain("mcp-client-2025-11-20");
    expect((rec.body as { mcp_servers: unknown }).mcp_servers).toEqual([
      { type: "url", name: "files", url: "https://mcp.example.com/mcp", authorization_token: "tok" },
    ]);
    expect(requestTools(rec)).toContainEqual({ kind: "mcp_toolset", name: "files" });
    expect(servers(partial).map((b) => [b.tool, b.part, b.server, b.name])).toEqual([
      ["mcp", "use", "files", "read_file"],
      ["mcp", "result", "files", "read_file"],
    ]);
    expect(servers(partial)[1]?.output).toBe("hi");
  });

  it("a call the request did not offer a tool for still arrives as one well-formed stream", async () => {
    mock.enqueue("anthropic", { text: "Let me read.", toolCalls: [{ name: "read_file", input: { path: "a" } }] });
    const events = await collect(createAnthropicStream()(request(ANTHROPIC)));
    const kinds = types(events);
    expect(kinds[0]).toBe("start");
    expect(kinds.filter((t) => t === "done" || t === "error")).toEqual(["done"]);
    expect(kinds.at(-1)).toBe("done");
    expect(kinds.filter((t) => t === "toolcall_start" || t === "toolcall_end")).toEqual([
      "toolcall_start",
      "toolcall_end",
    ]);
    const end = events.at(-1);
    expect(end?.type === "done" ? end.partial.content.map((b) => b.type) : []).toEqual(["text", "tool_call"]);
  });
});

describe("openai server tools", () => {
  it("chat completions leaves provider tools out: it has none", async () => {
    await run("openai-chat", { tools: [READ, { kind: "web_search" }, { kind: "code_execution" }] });
    const [rec] = mock.requests({ api: "openai" });
    expect(rec ? requestTools(rec) : []).toEqual([{ kind: "function", name: "read_file", description: "Read a file" }]);
  });

  it("responses: the files code interpreter wrote (container_file_citation) go onto its block", async () => {
    mock.enqueue("openai", {
      serverTools: [{ kind: "code_execution", code: "save()", stdout: "", files: ["a.csv", "b.png"] }],
      text: "Saved two files.",
    });
    const { partial } = await run("openai-responses", { tools: [{ kind: "code_execution" }] });
    const [code] = servers(partial);
    expect(code?.produced).toEqual([
      { fileId: "cfile_a.csv", containerId: "cntr_mock", name: "a.csv" },
      { fileId: "cfile_b.png", containerId: "cntr_mock", name: "b.png" },
    ]);
    expect(producedFiles(partial.content).map((f) => [f.api, f.provider, f.key])).toEqual([
      ["openai-responses", "openai", "cntr_mock/cfile_a.csv"],
      ["openai-responses", "openai", "cntr_mock/cfile_b.png"],
    ]);
  });

  it("responses: code interpreter image outputs become files to fetch by their URL, before the cited files", async () => {
    mock.enqueue("openai", {
      serverTools: [{ kind: "code_execution", code: "plot()", stdout: "", images: ["png", "svg"], files: ["a.csv"] }],
      text: "A chart.",
    });
    const { partial } = await run("openai-responses", { tools: [{ kind: "code_execution" }] });
    const [code] = servers(partial);
    expect(code?.files).toBeUndefined();
    const id = code?.callId ?? "";
    expect(code?.produced?.map((r) => [r.fileId, r.url?.slice(0, 22), r.name])).toEqual([
      [`${id}/image-1`, "data:image/png;base64,", undefined],
      [`${id}/image-2`, "data:image/svg+xml;bas", undefined],
      ["cfile_a.csv", undefined, "a.csv"],
    ]);
    expect(producedFiles(partial.content).map((f) => f.key)).toEqual([
      `/${id}/image-1`,
      `/${id}/image-2`,
      "cntr_mock/cfile_a.csv",
    ]);
  });

  it("responses: web_search, code_interpreter and mcp tools; their items as server tool blocks; url citations", async () => {
    mock.enqueue("openai", {
      serverTools: [
        { kind: "web_search", query: "q", results: [{ url: "https://example.com/r", title: "R" }] },
        { kind: "code_execution", code: "print(1)", stdout: "1\n" },
        { kind: "mcp", server: "files", name: "read_file", input: { path: "a" }, output: "hi" },
      ],
      text: "Found R.",
      citations: [{ url: "https://example.com/r", title: "R", citedText: "R" }],
    });
    const mcp: ToolSpec = { kind: "mcp", name: "files", url: "https://mcp.example.com", authorizationToken: "tok" };
    const { partial } = await run("openai-responses", {
      tools: [{ kind: "web_search" }, { kind: "code_execution" }, mcp, { kind: "web_fetch" }],
    });
    const [rec] = mock.requests({ api: "openai" });
    if (!rec) throw new Error("no request");
    const body = rec.body as { tools: unknown[]; include: string[] };
    expect(body.tools).toEqual([
      { type: "web_search" },
      { type: "code_interpreter", container: { type: "auto" } },
      {
        type: "mcp",
        server_label: "files",
        server_url: "https://mcp.example.com",
        require_approval: "never",
        authorization: "tok",
      },
    ]);
    expect(body.include).toEqual([
      "reasoning.encrypted_content",
      "web_search_call.action.sources",
      "code_interpreter_call.outputs",
    ]);
    expect(servers(partial).map((b) => [b.tool, b.name, b.part])).toEqual([
      ["web_search", "web_search", "item"],
      ["code_execution", "code_interpreter", "item"],
      ["other", "mcp_list_tools", "item"],
      ["mcp", "read_file", "item"],
    ]);
    expect(servers(partial)[0]?.sources).toEqual([{ url: "https://example.com/r" }]);
    expect(servers(partial)[1]).toMatchObject({ input: { code: "print(1)" }, output: "1\n" });
    expect(servers(partial)[3]).toMatchObject({ server: "files", input: { path: "a" }, output: "hi" });
    const text = partial.content.at(-1);
    expect(text).toEqual({
      type: "text",
      text: "Found R.",
      citations: [{ url: "https://example.com/r", title: "R", citedText: "R" }],
    });

    // The items go back as input items, verbatim, and the API takes them.
    mock.enqueue("openai", { text: "Ok." });
    const again = await run("openai-responses", { context: nextContext(partial, {}), tools: [{ kind: "web_search" }] });
    expect(again.partial.content).toEqual([{ type: "text", text: "Ok." }]);
    const body2 = mock.requests({ api: "openai" })[1]?.body as { input: Array<{ type?: string }> } | undefined;
    const input = body2?.input ?? [];
    expect(input.map((i) => i.type)).toEqual([
      "message",
      "web_search_call",
      "code_interpreter_call",
      "mcp_list_tools",
      "mcp_call",
      "message",
      "message",
    ]);
  });
});

describe.each(["anthropic-messages", "openai-chat", "openai-responses"] as const)("the tool loop over %s", (api) => {
  it("drives the adapter against the mock: call, result, answer; every request accepted", async () => {
    mock.enqueue(
      MOCK_API(api),
      {
        toolCalls: [
          { name: "read_file", input: { path: "a.txt" } },
          { name: "read_file", input: { path: "b.txt" } },
        ],
      },
      { text: "Both files say hello.", match: { lastToolResult: "hello" } },
    );
    const S = asSessionId("s");
    let n = 0;
    const start: Entry[] = [
      {
        type: "message",
        id: asEntryId("u1"),
        sessionId: S,
        parentId: null,
        createdAt: 0,
        role: "user",
        content: [{ type: "text", text: "Read a and b." }],
        status: "complete",
      },
    ];
    // The adapter as the loop's stream: the providers' tool stream fits the loop's contract.
    const stream: StepStreamFn<StreamEvent> = (context, signal) => ADAPTERS[api](request(api, { context, signal }));
    const result = await runAgentLoop(
      start,
      {
        buildContext: (path) =>
          buildContext(path, {
            systemPrompt: "",
            targetApi: api,
            targetProviderId: request(api).provider.id,
            nativeTools: true,
          }),
        appendStep: async (draft, path) => [
          ...path,
          {
            ...draft,
            id: asEntryId(`e${++n}`),
            sessionId: S,
            parentId: path.at(-1)?.id ?? null,
            createdAt: n,
          } as MessageEntry,
        ],
        approve: async () => "allow",
        executeTool: async (call) => ({
          text: `hello from ${String((call.args as { path: string }).path)}`,
          isError: false,
        }),
      },
      () => {},
      new AbortController().signal,
      stream,
    );
    expect(result.outcome).toEqual({ kind: "done" });
    expect(mock.requests({ api: MOCK_API(api) }).map((r) => r.status)).toEqual([200, 200]);
    const answer = result.path.at(-1);
    expect(answer?.type === "message" ? answer.content : []).toEqual([{ type: "text", text: "Both files say hello." }]);
  });
});
