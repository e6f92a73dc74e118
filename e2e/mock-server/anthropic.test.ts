/**
 * The mock's Anthropic wire format, proven with the real `@anthropic-ai/sdk` (Node fetch): if the SDK
 * assembles the stream, classifies each fault and reads each header, the browser app will see the same.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ANTHROPIC_OVERFLOW_MESSAGE, type MockServer, startMockServer } from "./index";

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

// Not claude-sonnet-4-5: the SDK logs a deprecation warning for it on every call.
const MODEL = "claude-haiku-4-5";

function ask(text: string, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
  return { model: MODEL, max_tokens: 1024, messages: [{ role: "user" as const, content: text }], ...extra };
}

/** Raw SSE event names of one streamed request (the SDK hides pings, so read the wire). */
async function rawEventNames(body: unknown): Promise<string[]> {
  const res = await fetch(`${mock.anthropicBaseUrl}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": "k", "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1] ?? "");
}

describe("anthropic streaming", () => {
  it("streams the default echo reply, with stop reason and usage", async () => {
    const stream = client.messages.stream(ask("hello there, mock"));
    const deltas: string[] = [];
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: "text", text: "Echo: hello there, mock" }]);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Echo: hello there, mock");
    expect(message.stop_reason).toBe("end_turn");
    expect(message.model).toBe(MODEL);
    expect(message.id).toMatch(/^msg_/);
    // chars/4, rounded up: "hello there, mock" is 17 chars → 5; the reply's 23 chars → 6.
    expect(message.usage.input_tokens).toBe(5);
    expect(message.usage.output_tokens).toBe(6);
  });

  it("sends the documented event sequence, pings included", async () => {
    const names = await rawEventNames({ ...ask("one two three four five six"), stream: true });
    expect(names[0]).toBe("message_start");
    expect(names[1]).toBe("content_block_start");
    expect(names).toContain("ping");
    expect(names.filter((n) => n === "content_block_delta").length).toBeGreaterThan(1);
    expect(names.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
  });

  it("streams scripted chunks, thinking with a signature, length stop and usage", async () => {
    mock.enqueue("anthropic", {
      chunks: ["Hel", "lo", "!"],
      thinking: "Let me think about this carefully.",
      stopReason: "length",
      usage: { input: 1234, output: 56 },
    });
    const stream = client.messages.stream(ask("hi"));
    const thinkingDeltas: string[] = [];
    stream.on("thinking", (delta) => thinkingDeltas.push(delta));
    const message = await stream.finalMessage();
    const [thinking, text] = message.content;
    expect(thinking?.type).toBe("thinking");
    if (thinking?.type !== "thinking") throw new Error("expected a thinking block");
    expect(thinking.thinking).toBe("Let me think about this carefully.");
    expect(thinking.signature.length).toBeGreaterThan(20);
    expect(thinkingDeltas.join("")).toBe("Let me think about this carefully.");
    expect(text).toMatchObject({ type: "text", text: "Hello!" });
    expect(message.stop_reason).toBe("max_tokens");
    expect(message.usage).toMatchObject({ input_tokens: 1234, output_tokens: 56 });
  });

  it("uses scripts in FIFO order, then falls back to echo", async () => {
    mock.enqueue("anthropic", { text: "first" }, { text: "second" });
    const a = await client.messages.stream(ask("x")).finalText();
    const b = await client.messages.stream(ask("y")).finalText();
    const c = await client.messages.stream(ask("z")).finalText();
    expect([a, b, c]).toEqual(["first", "second", "Echo: z"]);
    expect(mock.queued()).toBe(0);
  });

  it("answers non-streaming requests with a JSON message", async () => {
    mock.enqueue("anthropic", { text: "A summary.", thinking: "hmm" });
    const message = await client.messages.create(ask("summarize"));
    expect(message.type).toBe("message");
    expect(message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(message.content[1]).toMatchObject({ type: "text", text: "A summary." });
    expect(message.stop_reason).toBe("end_turn");
  });
});

describe("anthropic faults", () => {
  it("401 → AuthenticationError", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 401 } });
    const error = await client.messages.create(ask("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error).toMatchObject({ status: 401, type: "authentication_error" });
  });

  it("429 → RateLimitError with a readable retry-after", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 429, retryAfterSeconds: 7 } });
    const error = await client.messages
      .stream(ask("x"))
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    if (!(error instanceof Anthropic.RateLimitError)) return;
    expect(error.headers.get("retry-after")).toBe("7");
    expect(error.type).toBe("rate_limit_error");
  });

  it("529 → OverloadedError", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 529 } });
    const error = await client.messages.create(ask("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.OverloadedError);
    expect(error).toMatchObject({ status: 529, type: "overloaded_error", apiMessage: "Overloaded" });
  });

  it("400 → BadRequestError with the real context-overflow message", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 400 } });
    const error = await client.messages.create(ask("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: "invalid_request_error", apiMessage: ANTHROPIC_OVERFLOW_MESSAGE });
  });

  it("500 → InternalServerError (api_error)", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 500, message: "boom" } });
    const error = await client.messages.create(ask("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error).toMatchObject({ status: 500, type: "api_error", apiMessage: "boom" });
  });

  it("a mid-stream overloaded error arrives after the partial text", async () => {
    mock.enqueue("anthropic", {
      chunks: ["par", "tial", " never"],
      fault: { kind: "midstream_error", afterChunks: 2 },
    });
    const stream = client.messages.stream(ask("x"));
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(deltas.join("")).toBe("partial");
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error).toMatchObject({ status: undefined, type: "overloaded_error", apiMessage: "Overloaded" });
  });

  it("a dropped socket fails the stream without a clean end", async () => {
    mock.enqueue("anthropic", { chunks: ["a", "b", "c"], fault: { kind: "drop", afterChunks: 1 } });
    const stream = client.messages.stream(ask("x"));
    const deltas: string[] = [];
    stream.on("text", (d) => deltas.push(d));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(deltas.join("")).toBe("a");
    expect(mock.requests()[0]?.outcome).toBe("dropped");
  });

  it("a hanging stream ends only when the client aborts", async () => {
    mock.enqueue("anthropic", { chunks: ["wait", "ing"], fault: { kind: "hang", afterChunks: 1 } });
    const stream = client.messages.stream(ask("x"));
    const first = new Promise<string>((resolve) => stream.on("text", resolve));
    expect(await first).toBe("wait");
    await new Promise((r) => setTimeout(r, 50));
    expect(mock.requests()[0]?.outcome).toBe("pending");
    stream.abort();
    await stream.done().catch(() => undefined);
    await expect.poll(() => mock.requests()[0]?.outcome).toBe("client_aborted");
  });
});

describe("anthropic requests", () => {
  it("rejects a missing key, and a wrong one when a key is configured", async () => {
    const missing = await fetch(`${mock.anthropicBaseUrl}/v1/messages`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    mock.config({ apiKey: "right" });
    const wrong = await client.messages.create(ask("x")).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(Anthropic.AuthenticationError);
    const right = new Anthropic({ baseURL: mock.anthropicBaseUrl, apiKey: "right", maxRetries: 0 });
    expect((await right.messages.create(ask("x"))).content[0]).toMatchObject({ text: "Echo: x" });
  });

  it("accepts the key as x-api-key as well as Bearer", async () => {
    const res = await fetch(`${mock.anthropicBaseUrl}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "sk-ant-x", "content-type": "application/json" },
      body: JSON.stringify(ask("via header")),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ content: [{ type: "text", text: "Echo: via header" }] });
  });

  it("strict mode rejects non-alternating roles like a strict chat template", async () => {
    mock.config({ strict: true });
    const twoUsers = {
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: "user" as const, content: "a" },
        { role: "user" as const, content: "b" },
      ],
    };
    const error = await client.messages.create(twoUsers).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error).toMatchObject({ apiMessage: "Conversation roles must alternate user/assistant/user/assistant/..." });
    const assistantFirst = {
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: "assistant" as const, content: "a" },
        { role: "user" as const, content: "b" },
      ],
    };
    expect(await client.messages.create(assistantFirst).catch((e: unknown) => e)).toBeInstanceOf(
      Anthropic.BadRequestError,
    );
    mock.config({ strict: false });
    expect((await client.messages.create(twoUsers)).content[0]).toMatchObject({ text: "Echo: b" });
  });

  it("validates like the real API (empty text block, trailing whitespace prefill, thinking budget)", async () => {
    const emptyBlock = await client.messages
      .create({ model: MODEL, max_tokens: 100, messages: [{ role: "user", content: [{ type: "text", text: "" }] }] })
      .catch((e: unknown) => e);
    expect(emptyBlock).toMatchObject({ status: 400, apiMessage: "messages: text content blocks must be non-empty" });
    const prefill = await client.messages
      .create({
        model: MODEL,
        max_tokens: 100,
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "partial " },
        ],
      })
      .catch((e: unknown) => e);
    expect(prefill).toMatchObject({
      status: 400,
      apiMessage: "messages: final assistant content cannot end with trailing whitespace",
    });
    const budget = await client.messages
      .create({ ...ask("x"), max_tokens: 2000, thinking: { type: "enabled", budget_tokens: 4000 } })
      .catch((e: unknown) => e);
    expect(budget).toMatchObject({ status: 400 });
    // A scripted fault never fires for a request the API itself would reject.
    mock.enqueue("anthropic", { text: "kept" });
    expect(mock.queued("anthropic")).toBe(1);
  });

  it("lists models and counts tokens", async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual([
      "claude-sonnet-4-5",
      "claude-haiku-4-5",
      "claude-sonnet-4-6",
      "claude-opus-4-6",
    ]);
    const count = await client.messages.countTokens({
      model: MODEL,
      messages: [{ role: "user", content: "12345678" }],
    });
    expect(count.input_tokens).toBe(2);
  });

  it("records what the SDK sent", async () => {
    await client.messages.create({ ...ask("remember me"), system: "Be brief." });
    await client.models.list();
    const [messages, models] = mock.requests({ api: "anthropic" });
    expect(messages).toMatchObject({
      api: "anthropic",
      method: "POST",
      path: "/anthropic/v1/messages",
      status: 200,
      outcome: "completed",
      body: { model: MODEL, system: "Be brief.", messages: [{ role: "user", content: "remember me" }] },
    });
    expect(messages?.headers.authorization).toBe("Bearer sk-ant-test");
    expect(messages?.headers["anthropic-version"]).toBeDefined();
    expect(models).toMatchObject({ method: "GET", path: "/anthropic/v1/models" });
  });
});
