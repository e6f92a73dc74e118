import { describe, expect, it } from "vitest";
import type { LlmContext } from "../core/session/context";
import { isRetryable } from "./classify-error";
import { createOpenAIStream, usesMaxCompletionTokens } from "./openai";
import { createFakeFetch, type FakeReply, jsonReply, sseData, sseReply } from "./testing/fake-fetch";
import { collect, last, testProvider, testRequest, types } from "./testing/requests";
import type { StreamRequest } from "./types";

const API = "openai-chat" as const;

// ---- wire fixtures (shapes as api.openai.com and compatible servers send them) -----------------

function chunk(
  delta: Record<string, unknown>,
  finish_reason: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return sseData({
    id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion.chunk",
    created: 1741570283,
    model: "gpt-4o-2024-08-06",
    system_fingerprint: "fp_eb9dce56a8",
    choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    usage: null,
    ...extra,
  });
}
const usageChunk = sseData({
  id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
  object: "chat.completion.chunk",
  created: 1741570283,
  model: "gpt-4o-2024-08-06",
  choices: [],
  usage: {
    prompt_tokens: 1200,
    completion_tokens: 12,
    total_tokens: 1212,
    prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  },
});
const DONE = sseData("[DONE]");

function textReply(parts: string[], finish = "stop"): FakeReply {
  return sseReply([
    chunk({ role: "assistant", content: "", refusal: null }),
    ...parts.map((p) => chunk({ content: p })),
    chunk({}, finish),
    usageChunk,
    DONE,
  ]);
}

function run(replies: FakeReply[], patch: Partial<StreamRequest> = {}) {
  const fake = createFakeFetch(replies);
  const stream = createOpenAIStream({ fetch: fake.fetch });
  return { fake, events: collect(stream(testRequest(API, patch))) };
}

const ollama = testProvider(API, { id: "ollama", baseUrl: "http://localhost:11434/v1", apiKey: "" });

// ---- tests --------------------------------------------------------------------------------------

describe("streamOpenAI", () => {
  it("streams text, maps usage from the final chunk, and ends with done", async () => {
    const { fake, events: pending } = run([textReply(["Hel", "lo"])]);
    const events = await pending;
    expect(types(events)).toEqual(["start", "text_delta", "text_delta", "done"]);
    expect(last(events).partial).toEqual({
      content: [{ type: "text", text: "Hello" }],
      providerId: "openai",
      api: API,
      model: "gpt-4o",
      usage: { input: 1200, output: 12, cacheRead: 1024 },
      stopReason: "end",
    });

    const [request] = fake.requests;
    expect(request?.url).toBe("https://api.openai.com/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Hello" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 1024,
    });
  });

  it("drops thinking from the context, joins text blocks, and omits an empty system prompt", async () => {
    const context: LlmContext = {
      system: "",
      messages: [
        { role: "user", content: [{ type: "text", text: "Q1" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", text: "private", signature: "sig", signedBy: "anthropic-messages" },
            { type: "thinking", text: "unsigned reasoning" },
            { type: "text", text: "A1" },
            { type: "text", text: "A1b" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "Q2" }] },
      ],
    };
    const { fake, events } = run([textReply(["ok"])], { context });
    await events;
    expect(fake.requests[0]?.body).toMatchObject({
      messages: [
        { role: "user", content: "Q1" },
        { role: "assistant", content: "A1\n\nA1b" },
        { role: "user", content: "Q2" },
      ],
    });
  });

  it("sends max_tokens (not max_completion_tokens) to a local OpenAI-compatible server, with a placeholder key", async () => {
    const { fake, events } = run([textReply(["ok"])], { provider: ollama, model: "llama3.2" });
    await events;
    const [request] = fake.requests;
    expect(request?.url).toBe("http://localhost:11434/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer no-key");
    expect(request?.body).toMatchObject({ max_tokens: 1024 });
    expect(request?.body).not.toHaveProperty("max_completion_tokens");
  });

  it("sends max_completion_tokens and reasoning_effort for a reasoning model behind any base URL", async () => {
    const { fake, events } = run([textReply(["ok"])], {
      provider: testProvider(API, { baseUrl: "https://gateway.example/v1" }),
      model: "o3-mini",
      thinking: { kind: "openai-effort", effort: "high" },
    });
    await events;
    expect(fake.requests[0]?.body).toMatchObject({ max_completion_tokens: 1024, reasoning_effort: "high" });
    expect(fake.requests[0]?.body).not.toHaveProperty("max_tokens");
  });

  it.each([
    ["https://api.openai.com/v1", "gpt-4o", true],
    ["https://openrouter.ai/api/v1", "openai/gpt-5", false],
    ["http://localhost:1234/v1", "gpt-5-mini", true],
    ["http://localhost:11434/v1", "qwen3:8b", false],
    ["not a url", "o4-mini", true],
  ])("usesMaxCompletionTokens(%s, %s) = %s", (baseUrl, model, expected) => {
    expect(usesMaxCompletionTokens(baseUrl, model)).toBe(expected);
  });

  it("turns DeepSeek/vLLM reasoning_content into an unsigned thinking block", async () => {
    const events = await run([
      sseReply([
        chunk({ role: "assistant", content: null, reasoning_content: "" }),
        chunk({ content: null, reasoning_content: "Okay, the user" }),
        chunk({ content: null, reasoning_content: " says hello." }),
        chunk({ content: "Hi!", reasoning_content: null }),
        chunk({}, "stop"),
        DONE,
      ]),
    ]).events;
    expect(types(events)).toEqual(["start", "thinking_delta", "thinking_delta", "text_delta", "done"]);
    const content = last(events).partial.content;
    expect(content).toEqual([
      { type: "thinking", text: "Okay, the user says hello." },
      { type: "text", text: "Hi!" },
    ]);
    expect(content[0]).not.toHaveProperty("signedBy");
  });

  it("turns OpenRouter/Ollama `reasoning` into thinking, never doubling a server that sends both fields", async () => {
    const events = await run([
      sseReply([
        chunk({ role: "assistant", content: "", reasoning: "Think" }),
        chunk({ content: "", reasoning: "ing", reasoning_content: "ing" }),
        chunk({ content: "Answer" }),
        chunk({}, "stop"),
        DONE,
      ]),
    ]).events;
    expect(last(events).partial.content).toEqual([
      { type: "thinking", text: "Thinking" },
      { type: "text", text: "Answer" },
    ]);
  });

  it.each([
    ["length", "length"],
    ["content_filter", "refusal"],
    ["tool_calls", "tool_use"],
    ["function_call", "tool_use"],
  ])("maps finish_reason %s to %s (a done, not an error)", async (wire, ours) => {
    const events = await run([textReply(["x"], wire)]).events;
    expect(last(events)).toMatchObject({ type: "done", partial: { stopReason: ours } });
  });

  it("shows a streamed refusal as text and ends with stopReason refusal", async () => {
    const events = await run([
      sseReply([
        chunk({ role: "assistant", content: null, refusal: "" }),
        chunk({ refusal: "I'm sorry, I can't help with that." }),
        chunk({}, "stop"),
        DONE,
      ]),
    ]).events;
    expect(last(events).partial).toMatchObject({
      content: [{ type: "text", text: "I'm sorry, I can't help with that." }],
      stopReason: "refusal",
    });
  });

  it("turns a mid-stream {error} data line into an error that keeps the partial text", async () => {
    const events = await run([
      sseReply([
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "Partial answ" }),
        sseData({
          error: {
            message: "The server had an error while processing your request. Sorry about that!",
            type: "server_error",
            param: null,
            code: null,
          },
        }),
      ]),
    ]).events;
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    const end = last(events);
    expect(end.type === "error" && end.error.kind).toBe("server");
    expect(end.type === "error" && end.error.message).toContain("The server had an error");
    expect(end.partial).toMatchObject({ content: [{ type: "text", text: "Partial answ" }], stopReason: "error" });
  });

  it("handles OpenRouter's mid-stream error chunk (error field + finish_reason error)", async () => {
    const events = await run([
      sseReply([
        chunk({ role: "assistant", content: "Some" }),
        chunk({ content: "" }, "error", {
          error: { code: "server_error", message: "Provider disconnected unexpectedly" },
        }),
      ]),
    ]).events;
    const end = last(events);
    expect(end.type === "error" && end.error.kind).toBe("server");
    expect(end.partial.content).toEqual([{ type: "text", text: "Some" }]);
  });

  it("handles vLLM's mid-stream {object: error} payload, which the SDK passes through as a chunk", async () => {
    const events = await run([
      sseReply([
        chunk({ role: "assistant", content: "Some" }),
        sseData({
          object: "error",
          message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
          type: "BadRequestError",
          param: null,
          code: 400,
        }),
      ]),
    ]).events;
    const end = last(events);
    expect(end.type === "error" && end.error).toMatchObject({ kind: "context_overflow", status: 400 });
    expect(end.partial.content).toEqual([{ type: "text", text: "Some" }]);
  });

  it("reports a body that fails mid-way as a network error, keeping the partial", async () => {
    const events = await run([sseReply([chunk({ role: "assistant", content: "Part" })], "drop")]).events;
    const end = last(events);
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    expect(end.type === "error" && end.error.kind).toBe("network");
    expect(end.partial.content).toEqual([{ type: "text", text: "Part" }]);
  });

  it("reports a body that closes without a finish_reason as a network error", async () => {
    const events = await run([sseReply([chunk({ role: "assistant", content: "Part" })])]).events;
    const end = last(events);
    expect(end.type === "error" && end.error.kind).toBe("network");
  });

  it("ends with an aborted error (partial kept) when the signal aborts mid-stream", async () => {
    const controller = new AbortController();
    const fake = createFakeFetch([sseReply([chunk({ role: "assistant", content: "Before" })], "hang")]);
    const stream = createOpenAIStream({ fetch: fake.fetch });
    const events = await collect(stream(testRequest(API, { signal: controller.signal })), (e) => {
      if (e.type === "text_delta") controller.abort();
    });
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    expect(last(events)).toMatchObject({
      error: { kind: "aborted" },
      partial: { stopReason: "aborted", content: [{ type: "text", text: "Before" }] },
    });
  });

  it.each([
    {
      name: "401 invalid_api_key",
      reply: jsonReply(401, {
        error: {
          message:
            "Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }),
      expected: { kind: "auth", status: 401 },
      retryable: false,
    },
    {
      name: "429 rate_limit_exceeded with retry-after-ms",
      reply: jsonReply(
        429,
        {
          error: {
            message:
              "Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 1.4s.",
            type: "tokens",
            param: null,
            code: "rate_limit_exceeded",
          },
        },
        { "retry-after-ms": "1400" },
      ),
      expected: { kind: "rate_limit", status: 429, retryAfterMs: 1400 },
      retryable: true,
    },
    {
      name: "429 insufficient_quota",
      reply: jsonReply(429, {
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          type: "insufficient_quota",
          param: null,
          code: "insufficient_quota",
        },
      }),
      expected: { kind: "quota", status: 429 },
      retryable: false,
    },
    {
      name: "400 context_length_exceeded",
      reply: jsonReply(400, {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        },
      }),
      expected: { kind: "context_overflow", status: 400 },
      retryable: false,
    },
    {
      name: "503 engine overloaded",
      reply: jsonReply(503, {
        error: {
          message: "The engine is currently overloaded, please try again later",
          type: "server_error",
          param: null,
          code: null,
        },
      }),
      expected: { kind: "overloaded", status: 503 },
      retryable: true,
    },
    {
      name: "400 from llama.cpp (exceed_context_size_error)",
      reply: jsonReply(400, {
        error: {
          code: 400,
          message: "request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it",
          type: "exceed_context_size_error",
          n_prompt_tokens: 4390,
          n_ctx: 4096,
        },
      }),
      expected: { kind: "context_overflow", status: 400 },
      retryable: false,
    },
    {
      name: "400 from vLLM (body without an `error` wrapper)",
      reply: jsonReply(400, {
        object: "error",
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
        type: "BadRequestError",
        param: null,
        code: 400,
      }),
      expected: { kind: "context_overflow", status: 400 },
      retryable: false,
    },
    {
      name: "404 from Ollama (error as a bare string)",
      reply: jsonReply(404, { error: 'model "llama9" not found, try pulling it first' }),
      expected: { kind: "invalid_request", status: 404 },
      retryable: false,
    },
  ])("classifies an HTTP $name before any content", async ({ reply, expected, retryable }) => {
    const events = await run([reply]).events;
    expect(types(events)).toEqual(["start", "error"]);
    const end = last(events);
    if (end.type !== "error") throw new Error("expected an error");
    expect(end.error).toMatchObject(expected);
    expect(isRetryable(end.error)).toBe(retryable);
    expect(end.partial).toMatchObject({ content: [], stopReason: "error" });
  });

  it("keeps the provider's words in the message, after a plain sentence", async () => {
    const events = await run([jsonReply(404, { error: 'model "llama9" not found, try pulling it first' })], {
      provider: ollama,
    }).events;
    const end = last(events);
    expect(end.type === "error" && end.error.message).toBe(
      "The provider doesn't know this model or address (404). Check the model id and the base URL. " +
        'Provider said: model "llama9" not found, try pulling it first',
    );
  });
});
