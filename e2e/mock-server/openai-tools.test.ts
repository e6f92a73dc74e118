/**
 * The mock's tool traffic in both OpenAI wire formats, proven with the real `openai` SDK: Chat
 * Completions `tool_calls` (assembled by the SDK's own ChatCompletionStream), Responses `function_call`,
 * `web_search_call` (+ `url_citation`), `code_interpreter_call` and `mcp_call` items read through the
 * SDK's types, and the APIs' pairing errors in their own words.
 */
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type {
  Response,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
  Tool,
} from "openai/resources/responses/responses";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, requestTools, startMockServer } from "./index";
import { CHART_PNG, CHART_WIDTH } from "./png";
import { containerFileId, MOCK_CONTAINER } from "./responses-tools";

let mock: MockServer;
let client: OpenAI;

beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 1 } });
  client = new OpenAI({ baseURL: mock.openaiBaseUrl, apiKey: "sk-test-1234567890", maxRetries: 0 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
});

const READ: ChatCompletionTool = {
  type: "function",
  function: { name: "read_file", description: "Read a file", parameters: { type: "object" } },
};

describe("chat completions tool_calls", () => {
  const chat = (messages: ChatCompletionMessageParam[] | string) => ({
    model: "gpt-4o",
    messages: typeof messages === "string" ? [{ role: "user" as const, content: messages }] : messages,
    tools: [READ],
  });

  it("streams parallel calls as deltas the SDK assembles, finish_reason tool_calls", async () => {
    mock.enqueue("openai", {
      toolCalls: [
        { name: "read_file", input: { path: "a.txt" } },
        { name: "read_file", input: { path: "b.txt" }, id: "call_given" },
      ],
    });
    const stream = client.chat.completions.stream(chat("read a and b"));
    const argumentDeltas: string[] = [];
    stream.on("tool_calls.function.arguments.delta", (e) => argumentDeltas.push(e.arguments_delta));
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    const calls = choice?.message.tool_calls ?? [];
    expect(
      calls.map((c) => (c.type === "function" ? [c.function.name, JSON.parse(c.function.arguments)] : [])),
    ).toEqual([
      ["read_file", { path: "a.txt" }],
      ["read_file", { path: "b.txt" }],
    ]);
    expect(calls[0]?.id).toMatch(/^call_/);
    expect(calls[1]?.id).toBe("call_given");
    expect(argumentDeltas.length).toBeGreaterThan(2);
    const [rec] = mock.requests({ api: "openai" });
    if (!rec) throw new Error("no request");
    expect(requestTools(rec)).toEqual([{ kind: "function", name: "read_file", description: "Read a file" }]);
  });

  it("answers a non-streaming request with tool_calls and null content", async () => {
    mock.enqueue("openai", { toolCalls: [{ name: "read_file", input: { path: "x" } }] });
    const completion = await client.chat.completions.create(chat("x"));
    const message = completion.choices[0]?.message;
    expect(message?.content).toBeNull();
    const call = message?.tool_calls?.[0];
    expect(call?.type === "function" ? call.function.arguments : "").toBe('{"path":"x"}');
  });

  it("rejects tool_calls not answered by tool messages right after them", async () => {
    mock.enqueue("openai", { text: "unused" });
    const error = await client.chat.completions
      .create(
        chat([
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_a", type: "function", function: { name: "read_file", arguments: "{}" } },
              { id: "call_b", type: "function", function: { name: "read_file", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "call_a", content: "A" },
          { role: "user", content: "and b?" },
        ]),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      message:
        "400 An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_b",
      param: "messages.[1].role",
    });
    expect(mock.queued("openai")).toBe(1);
  });

  it("rejects a tool message that answers no call", async () => {
    const error = await client.chat.completions
      .create(
        chat([
          { role: "user", content: "go" },
          { role: "tool", tool_call_id: "call_x", content: "stray" },
        ]),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      message:
        "400 Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      param: "messages.[1].role",
    });
  });

  it("accepts answered calls and picks the script by the last tool result", async () => {
    mock.enqueue("openai", { text: "A it is", match: { lastToolResult: "content of a" } });
    const completion = await client.chat.completions.create(
      chat([
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_a", type: "function", function: { name: "read_file", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_a", content: "content of a" },
      ]),
    );
    expect(completion.choices[0]?.message.content).toBe("A it is");
  });
});

describe("responses tool items", () => {
  const params = (input: string | ResponseInputItem[], tools: Tool[]) => ({
    model: "gpt-5",
    input,
    tools,
    stream: true as const,
    store: false,
    max_output_tokens: 1024,
  });
  const fn: Tool = { type: "function", name: "read_file", parameters: { type: "object" }, strict: false };

  async function run(input: string | ResponseInputItem[], tools: Tool[]) {
    const events: ResponseStreamEvent[] = [];
    for await (const e of await client.responses.create(params(input, tools))) events.push(e);
    const done = events.find((e) => e.type === "response.completed");
    if (done?.type !== "response.completed") throw new Error("no response.completed");
    return { events, response: done.response };
  }

  function item<T extends ResponseOutputItem["type"]>(r: Response, type: T): Extract<ResponseOutputItem, { type: T }> {
    const found = r.output.find((i): i is Extract<ResponseOutputItem, { type: T }> => i.type === type);
    if (!found) throw new Error(`no ${type} item`);
    return found;
  }

  it("function_call items with streamed arguments", async () => {
    mock.enqueue("openai", {
      toolCalls: [
        { name: "read_file", input: { path: "a.txt" } },
        { name: "read_file", input: { path: "b.txt" } },
      ],
    });
    const { events, response } = await run("read both", [fn]);
    const calls = response.output.filter((i) => i.type === "function_call");
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ["read_file", { path: "a.txt" }],
      ["read_file", { path: "b.txt" }],
    ]);
    expect(calls[0]?.id).toMatch(/^fc_/);
    expect(calls[0]?.call_id).toMatch(/^call_/);
    // No message item: the reply only calls tools.
    expect(response.output.map((i) => i.type)).toEqual(["function_call", "function_call"]);
    const first = calls[0];
    const deltas = events.flatMap((e) =>
      e.type === "response.function_call_arguments.delta" && e.item_id === first?.id ? [e.delta] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(first?.arguments);
    const added = events.find((e) => e.type === "response.output_item.added");
    expect(added?.type === "response.output_item.added" ? added.item : null).toMatchObject({
      type: "function_call",
      arguments: "",
      status: "in_progress",
    });
    expect(response.tools).toEqual([fn]);
  });

  it("web_search_call with sources, and url_citation annotations on the text", async () => {
    mock.enqueue("openai", {
      serverTools: [{ kind: "web_search", query: "q", results: [{ url: "https://example.com/a", title: "A" }] }],
      text: "It is A.",
      citations: [{ url: "https://example.com/a", title: "A", citedText: "is A" }],
    });
    const { events, response } = await run("search", [{ type: "web_search" }]);
    const search = item(response, "web_search_call");
    expect(search.status).toBe("completed");
    expect(search.action).toEqual({
      type: "search",
      query: "q",
      sources: [{ type: "url", url: "https://example.com/a" }],
    });
    const message = item(response, "message");
    const [part] = message.content;
    if (part?.type !== "output_text") throw new Error("expected text");
    expect(part.annotations).toEqual([
      { type: "url_citation", url: "https://example.com/a", title: "A", start_index: 3, end_index: 7 },
    ]);
    const types = events.map((e) => e.type);
    expect(types).toContain("response.web_search_call.searching");
    expect(types).toContain("response.output_text.annotation.added");
  });

  it("code_interpreter_call with its code streamed and its logs", async () => {
    mock.enqueue("openai", {
      serverTools: [{ kind: "code_execution", code: "print(2+2)", stdout: "4\n" }],
      text: "Four.",
    });
    const { events, response } = await run("compute", [{ type: "code_interpreter", container: { type: "auto" } }]);
    const call = item(response, "code_interpreter_call");
    expect(call.code).toBe("print(2+2)");
    expect(call.outputs).toEqual([{ type: "logs", logs: "4\n" }]);
    const code = events.flatMap((e) => (e.type === "response.code_interpreter_call_code.delta" ? [e.delta] : []));
    expect(code.join("")).toBe("print(2+2)");
  });

  it("code_interpreter_call image outputs as data: URLs (a real PNG chart; an SVG), its files as container files", async () => {
    mock.enqueue("openai", {
      serverTools: [
        { kind: "code_execution", code: "plot()", stdout: "", images: ["png", "svg"], files: ["chart.png"] },
      ],
      text: "A chart.",
    });
    const { response } = await run("plot", [{ type: "code_interpreter", container: { type: "auto" } }]);
    const call = item(response, "code_interpreter_call");
    const images = (call.outputs ?? []).flatMap((o) => (o.type === "image" ? [o.url] : []));
    expect(images).toHaveLength(2);
    const png = Buffer.from(images[0]?.replace(/^data:image\/png;base64,/, "") ?? "", "base64");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.readUInt32BE(16)).toBe(CHART_WIDTH);
    expect(images[1]).toMatch(/^data:image\/svg\+xml;base64,/);
    const file = await client.containers.files.content.retrieve(containerFileId("chart.png"), {
      container_id: MOCK_CONTAINER,
    });
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(CHART_PNG)).toBe(true);
  });

  it("mcp_list_tools and mcp_call items (a failed call carries its error)", async () => {
    mock.enqueue("openai", {
      serverTools: [
        { kind: "mcp", server: "files", name: "read_file", input: { path: "a" }, output: "hello" },
        { kind: "mcp", server: "files", name: "write_file", input: { path: "b" }, output: "denied", isError: true },
      ],
      text: "Done.",
    });
    const tool: Tool = {
      type: "mcp",
      server_label: "files",
      server_url: "https://mcp.example.com",
      require_approval: "never",
    };
    const { response } = await run("use files", [tool]);
    const calls = response.output.filter((i) => i.type === "mcp_call");
    expect(calls.map((c) => [c.name, c.arguments, c.output, c.error, c.status])).toEqual([
      ["read_file", '{"path":"a"}', "hello", null, "completed"],
      ["write_file", '{"path":"b"}', null, "denied", "failed"],
    ]);
    expect(item(response, "mcp_list_tools").server_label).toBe("files");
    const [rec] = mock.requests({ api: "openai" });
    if (!rec) throw new Error("no request");
    expect(requestTools(rec)).toEqual([{ kind: "mcp", name: "files", url: "https://mcp.example.com" }]);
  });

  it("rejects a function_call_output without its call, and a call without its output", async () => {
    const orphanOutput = await client.responses
      .create(params([{ type: "function_call_output", call_id: "call_x", output: "stray" }], [fn]))
      .catch((e: unknown) => e);
    expect(orphanOutput).toMatchObject({
      status: 400,
      message: "400 No tool call found for function call output with call_id call_x.",
      param: "input",
    });
    const orphanCall = await client.responses
      .create(
        params(
          [
            { role: "user", content: "go" },
            { type: "function_call", call_id: "call_y", name: "read_file", arguments: "{}" },
          ],
          [fn],
        ),
      )
      .catch((e: unknown) => e);
    expect(orphanCall).toMatchObject({ status: 400, message: "400 No tool output found for function call call_y." });
  });

  it("accepts a call with its output and picks the script by it", async () => {
    mock.enqueue("openai", { text: "read it", match: { lastToolResult: "file text" } });
    const { response } = await run(
      [
        { role: "user", content: "go" },
        { type: "function_call", call_id: "call_y", name: "read_file", arguments: "{}" },
        { type: "function_call_output", call_id: "call_y", output: "the file text" },
      ],
      [fn],
    );
    expect(item(response, "message").content).toMatchObject([{ type: "output_text", text: "read it" }]);
  });
});
