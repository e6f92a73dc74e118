/**
 * The mock's Anthropic tool traffic, proven with the real `@anthropic-ai/sdk`: the SDK's own stream
 * accumulator assembles tool inputs from `input_json_delta`, and each block is read through the SDK's
 * types (a field the SDK does not declare would not compile here). Pairing errors carry the API's words.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, MessageParam, ToolUnion } from "@anthropic-ai/sdk/resources/messages";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, requestTools, startMockServer } from "./index";

let mock: MockServer;
let client: Anthropic;

beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 1 } });
  client = new Anthropic({ baseURL: mock.anthropicBaseUrl, apiKey: "sk-ant-test", maxRetries: 0 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
});

const MODEL = "claude-haiku-4-5";

const READ_TOOL: ToolUnion = {
  name: "read_file",
  description: "Read a file",
  input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

function ask(messages: MessageParam[] | string, tools: ToolUnion[] = [READ_TOOL]) {
  return {
    model: MODEL,
    max_tokens: 1024,
    messages: typeof messages === "string" ? [{ role: "user" as const, content: messages }] : messages,
    tools,
  };
}

function only<T extends ContentBlock["type"]>(blocks: ContentBlock[], type: T): Extract<ContentBlock, { type: T }> {
  const found = blocks.find((b): b is Extract<ContentBlock, { type: T }> => b.type === type);
  if (!found) throw new Error(`no ${type} block in ${JSON.stringify(blocks)}`);
  return found;
}

/** Raw SSE `data:` payloads of one streamed request (to see the deltas the SDK folds away). */
async function rawEvents(body: unknown): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${mock.anthropicBaseUrl}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": "k", "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1] ?? "{}") as Record<string, unknown>);
}

describe("anthropic function tools", () => {
  it("streams parallel tool_use blocks whose input the SDK assembles from input_json_delta", async () => {
    mock.enqueue("anthropic", {
      text: "Reading both.",
      toolCalls: [
        { name: "read_file", input: { path: "a.txt" } },
        { name: "read_file", input: { path: "notes/b.md" }, id: "toolu_given" },
      ],
    });
    const message = await client.messages.stream(ask("read a and b")).finalMessage();
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content.map((b) => b.type)).toEqual(["text", "tool_use", "tool_use"]);
    const calls = message.content.filter((b) => b.type === "tool_use");
    expect(calls.map((c) => [c.name, c.input])).toEqual([
      ["read_file", { path: "a.txt" }],
      ["read_file", { path: "notes/b.md" }],
    ]);
    expect(calls[0]?.id).toMatch(/^toolu_/);
    expect(calls[1]?.id).toBe("toolu_given");
    expect(calls[0]?.caller).toEqual({ type: "direct" });
  });

  it("sends the input in several input_json_delta pieces, after an empty input at block start", async () => {
    mock.enqueue("anthropic", { toolCalls: [{ name: "read_file", input: { path: "a-rather-long/path.txt" } }] });
    const events = await rawEvents({ ...ask("x"), stream: true });
    const start = events.find((e) => e.type === "content_block_start");
    expect(start?.content_block).toMatchObject({ type: "tool_use", name: "read_file", input: {} });
    const pieces = events.flatMap((e) => {
      const delta = e.delta as { type?: string; partial_json?: string } | undefined;
      return delta?.type === "input_json_delta" ? [delta.partial_json ?? ""] : [];
    });
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(""))).toEqual({ path: "a-rather-long/path.txt" });
    // A reply that only calls tools has no text block.
    expect(events.filter((e) => e.type === "content_block_start")).toHaveLength(1);
  });

  it("answers a non-streaming request with the same blocks", async () => {
    mock.enqueue("anthropic", { toolCalls: [{ name: "read_file", input: { path: "x" } }] });
    const message = await client.messages.create(ask("x"));
    expect(message.stop_reason).toBe("tool_use");
    expect(only(message.content, "tool_use").input).toEqual({ path: "x" });
  });

  it("records the tool definitions the request declared", async () => {
    await client.messages.create(
      ask("x", [READ_TOOL, { type: "web_search_20250305", name: "web_search", max_uses: 3 }]),
    );
    const [rec] = mock.requests({ api: "anthropic" });
    if (!rec) throw new Error("no request");
    expect(requestTools(rec)).toEqual([
      { kind: "function", name: "read_file", description: "Read a file" },
      { kind: "web_search_20250305", name: "web_search" },
    ]);
  });

  it("takes a script by the text of the last tool result", async () => {
    mock.enqueue(
      "anthropic",
      { text: "other", match: { lastToolResult: "nope" } },
      { text: "saw the file", match: { lastToolResult: "file body" } },
    );
    const reply = await client.messages.create(
      ask([
        { role: "user", content: "read it" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "the file body" }] },
      ]),
    );
    expect(only(reply.content, "text").text).toBe("saw the file");
    expect(mock.queued("anthropic")).toBe(1);
  });
});

describe("anthropic server tools", () => {
  it("web search: server_tool_use, its results, text with citations and the search count", async () => {
    mock.enqueue("anthropic", {
      serverTools: [
        {
          kind: "web_search",
          query: "grove compaction",
          results: [
            { url: "https://example.com/a", title: "Page A", pageAge: "2 days ago" },
            { url: "https://example.com/b", title: "Page B" },
          ],
        },
      ],
      text: "Grove compacts long chats.",
      citations: [{ url: "https://example.com/a", title: "Page A", citedText: "compacts long chats" }],
    });
    const message = await client.messages.stream(ask("search", [])).finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    const use = only(message.content, "server_tool_use");
    expect(use).toMatchObject({ name: "web_search", input: { query: "grove compaction" } });
    expect(use.id).toMatch(/^srvtoolu_/);
    const result = only(message.content, "web_search_tool_result");
    expect(result.tool_use_id).toBe(use.id);
    if (!Array.isArray(result.content)) throw new Error("expected results");
    expect(result.content.map((r) => [r.url, r.title, r.page_age])).toEqual([
      ["https://example.com/a", "Page A", "2 days ago"],
      ["https://example.com/b", "Page B", null],
    ]);
    expect(result.content[0]?.encrypted_content.length).toBeGreaterThan(10);
    const text = only(message.content, "text");
    expect(text.text).toBe("Grove compacts long chats.");
    const [citation] = text.citations ?? [];
    expect(citation?.type).toBe("web_search_result_location");
    if (citation?.type !== "web_search_result_location") throw new Error("expected a web citation");
    expect([citation.url, citation.title, citation.cited_text]).toEqual([
      "https://example.com/a",
      "Page A",
      "compacts long chats",
    ]);
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(message.stop_reason).toBe("end_turn");
  });

  it("web fetch: the fetched document", async () => {
    mock.enqueue("anthropic", {
      serverTools: [{ kind: "web_fetch", url: "https://example.com/doc", title: "Doc", text: "Body text." }],
      text: "Fetched.",
    });
    const message = await client.messages.create(ask("fetch", []));
    const result = only(message.content, "web_fetch_tool_result");
    if (result.content.type !== "web_fetch_result") throw new Error("expected a fetch result");
    expect(result.content.url).toBe("https://example.com/doc");
    expect(result.content.content.title).toBe("Doc");
    expect(result.content.content.source).toEqual({ type: "text", media_type: "text/plain", data: "Body text." });
  });

  it("code execution: bash (the current tool) and python (code_execution_20250522) results", async () => {
    mock.enqueue(
      "anthropic",
      {
        serverTools: [
          { kind: "code_execution", code: "echo hi", stdout: "hi\n", files: ["file_1"], returnCode: 0 },
          { kind: "code_execution", code: "print(1/0)", stdout: "", stderr: "ZeroDivisionError", variant: "python" },
        ],
        text: "Ran both.",
      },
      { serverTools: [{ kind: "code_execution", code: "ls", stdout: "a\n" }], text: "Listed." },
    );
    const message = await client.messages.stream(ask("run", [])).finalMessage();
    expect(message.content.map((b) => b.type)).toEqual([
      "server_tool_use",
      "bash_code_execution_tool_result",
      "server_tool_use",
      "code_execution_tool_result",
      "text",
    ]);
    const uses = message.content.filter((b) => b.type === "server_tool_use");
    expect(uses.map((u) => [u.name, u.input])).toEqual([
      ["bash_code_execution", { command: "echo hi" }],
      ["code_execution", { code: "print(1/0)" }],
    ]);
    const bash = only(message.content, "bash_code_execution_tool_result");
    if (bash.content.type !== "bash_code_execution_result") throw new Error("expected a bash result");
    expect(bash.content).toMatchObject({ stdout: "hi\n", stderr: "", return_code: 0 });
    expect(bash.content.content).toEqual([{ type: "bash_code_execution_output", file_id: "file_1" }]);
    const python = only(message.content, "code_execution_tool_result");
    if (python.content.type !== "code_execution_result") throw new Error("expected a python result");
    expect(python.content.stderr).toBe("ZeroDivisionError");
  });

  it("MCP connector (beta): mcp_tool_use and mcp_tool_result, the servers recorded", async () => {
    mock.enqueue("anthropic", {
      serverTools: [{ kind: "mcp", server: "files", name: "read_file", input: { path: "a.txt" }, output: "hello" }],
      text: "The file says hello.",
    });
    const message = await client.beta.messages
      .stream({
        model: MODEL,
        max_tokens: 1024,
        messages: [{ role: "user", content: "read a.txt" }],
        mcp_servers: [{ type: "url", name: "files", url: "https://mcp.example.com/mcp", authorization_token: "t" }],
        tools: [{ type: "mcp_toolset", mcp_server_name: "files" }],
        betas: ["mcp-client-2025-11-20"],
      })
      .finalMessage();
    expect(message.content.map((b) => b.type)).toEqual(["mcp_tool_use", "mcp_tool_result", "text"]);
    const use = message.content.find((b) => b.type === "mcp_tool_use");
    const result = message.content.find((b) => b.type === "mcp_tool_result");
    expect(use).toMatchObject({ name: "read_file", server_name: "files", input: { path: "a.txt" } });
    expect(result).toMatchObject({ tool_use_id: use?.id, is_error: false, content: [{ type: "text", text: "hello" }] });
    const [rec] = mock.requests({ api: "anthropic" });
    if (!rec) throw new Error("no request");
    expect(rec.headers["anthropic-beta"]).toContain("mcp-client-2025-11-20");
    expect(requestTools(rec)).toEqual([
      { kind: "mcp_toolset", name: "files" },
      { kind: "mcp_server", name: "files", url: "https://mcp.example.com/mcp" },
    ]);
  });
});

describe("anthropic tool pairing (the API's 400s)", () => {
  const use = (id: string): MessageParam => ({
    role: "assistant",
    content: [{ type: "tool_use", id, name: "read_file", input: { path: "a" } }],
  });
  const result = (id: string): MessageParam => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: "A" }],
  });

  async function rejection(messages: MessageParam[]): Promise<unknown> {
    return client.messages.create(ask(messages)).catch((e: unknown) => e);
  }

  it("a tool_use without a tool_result in the next message", async () => {
    mock.enqueue("anthropic", { text: "never used" });
    const error = await rejection([
      { role: "user", content: "go" },
      use("toolu_a"),
      { role: "user", content: "what happened?" },
    ]);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      type: "invalid_request_error",
      apiMessage:
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    });
    // A rejected request never eats a script.
    expect(mock.queued("anthropic")).toBe(1);
  });

  it("a tool_result that answers no tool_use of the message before it", async () => {
    const error = await rejection([
      { role: "user", content: "go" },
      use("toolu_a"),
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "A" },
          { type: "tool_result", tool_use_id: "toolu_b", content: "B" },
        ],
      },
    ]);
    expect(error).toMatchObject({
      status: 400,
      apiMessage:
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_b. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    });
  });

  it("a server tool result without its server_tool_use", async () => {
    const error = await rejection([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "web_search_tool_result", tool_use_id: "srvtoolu_x", content: [] },
          { type: "text", text: "done" },
        ],
      },
      { role: "user", content: "and?" },
    ]);
    expect(error).toMatchObject({
      status: 400,
      apiMessage:
        "messages.1.content.0: unexpected `tool_use_id` found in `web_search_tool_result` blocks: srvtoolu_x. Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.",
    });
  });

  it("accepts complete pairs, server tool blocks sent back included", async () => {
    mock.enqueue("anthropic", { text: "fine" });
    const reply = await client.messages.create(
      ask([
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [
            { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
            { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
            { type: "tool_use", id: "toolu_a", name: "read_file", input: { path: "a" } },
          ],
        },
        result("toolu_a"),
      ]),
    );
    expect(only(reply.content, "text").text).toBe("fine");
  });
});
