import { describe, expect, it } from "vitest";
import type { LlmContext } from "../core/session/context";
import { createAnthropicStream } from "./anthropic";
import { createFakeFetch, type FakeReply, jsonReply, sseEvent, sseReply } from "./testing/fake-fetch";
import { collect, last, testProvider, testRequest, types } from "./testing/requests";
import type { StreamRequest } from "./types";

const API = "anthropic-messages" as const;

// ---- wire fixtures (shapes as api.anthropic.com sends them) ------------------------------------

function messageStart(usage: Record<string, number> = {}) {
  return sseEvent("message_start", {
    type: "message_start",
    message: {
      id: "msg_01XFDUDYJgAACzvnptvVoYEL",
      type: "message",
      role: "assistant",
      content: [],
      model: "claude-haiku-4-5-20251001",
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 25,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: 100,
        output_tokens: 1,
        ...usage,
      },
    },
  });
}
const ping = sseEvent("ping", { type: "ping" });
const blockStart = (index: number, content_block: unknown) =>
  sseEvent("content_block_start", { type: "content_block_start", index, content_block });
const delta = (index: number, d: unknown) =>
  sseEvent("content_block_delta", { type: "content_block_delta", index, delta: d });
const blockStop = (index: number) => sseEvent("content_block_stop", { type: "content_block_stop", index });
const messageDelta = (stop_reason: string, output_tokens: number) =>
  sseEvent("message_delta", {
    type: "message_delta",
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens },
  });
const messageStop = sseEvent("message_stop", { type: "message_stop" });

const SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds";

function textReply(text: string[], stop = "end_turn"): FakeReply {
  return sseReply([
    messageStart(),
    blockStart(0, { type: "text", text: "" }),
    ping,
    ...text.map((t) => delta(0, { type: "text_delta", text: t })),
    blockStop(0),
    messageDelta(stop, 12),
    messageStop,
  ]);
}

function run(replies: FakeReply[], patch: Partial<StreamRequest> = {}) {
  const fake = createFakeFetch(replies);
  const stream = createAnthropicStream({ fetch: fake.fetch });
  return { fake, events: collect(stream(testRequest(API, patch))) };
}

// ---- tests --------------------------------------------------------------------------------------

describe("streamAnthropic", () => {
  it("streams thinking with its signature, then text, and maps usage and end_turn", async () => {
    const { fake, events: pending } = run([
      sseReply([
        messageStart(),
        blockStart(0, { type: "thinking", thinking: "", signature: "" }),
        ping,
        delta(0, { type: "thinking_delta", thinking: "Let me think" }),
        delta(0, { type: "thinking_delta", thinking: " about it." }),
        delta(0, { type: "signature_delta", signature: SIGNATURE }),
        blockStop(0),
        blockStart(1, { type: "text", text: "" }),
        // An event split across two network reads.
        delta(1, { type: "text_delta", text: "Hello" }).slice(0, 30),
        delta(1, { type: "text_delta", text: "Hello" }).slice(30),
        delta(1, { type: "text_delta", text: " there" }),
        blockStop(1),
        messageDelta("end_turn", 42),
        messageStop,
      ]),
    ]);
    const events = await pending;

    expect(types(events)).toEqual(["start", "thinking_delta", "thinking_delta", "text_delta", "text_delta", "done"]);
    const done = last(events);
    expect(done.partial).toEqual({
      content: [
        { type: "thinking", text: "Let me think about it.", signature: SIGNATURE, signedBy: API },
        { type: "text", text: "Hello there" },
      ],
      providerId: "anthropic",
      api: API,
      model: "claude-haiku-4-5",
      // input = uncached + cache read + cache write
      usage: { input: 135, output: 42, cacheRead: 100, cacheWrite: 10 },
      stopReason: "end",
    });
    // Every delta carries the partial so far.
    const second = events[4];
    expect(second?.type === "text_delta" && second.partial.content.at(-1)).toEqual({
      type: "text",
      text: "Hello there",
    });

    const [request] = fake.requests;
    expect(request?.url).toBe("https://api.anthropic.com/v1/messages");
    expect(request?.body).toMatchObject({
      model: "claude-haiku-4-5",
      max_tokens: 1024,
      stream: true,
      system: "You are terse.",
      messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
    });
    expect(request?.body).not.toHaveProperty("thinking");
  });

  it("ends a max_tokens stop with done (stopReason length), not an error", async () => {
    const events = await run([textReply(["cut sh"], "max_tokens")]).events;
    expect(types(events)).toEqual(["start", "text_delta", "done"]);
    expect(last(events).partial.stopReason).toBe("length");
  });

  it.each([
    ["stop_sequence", "end"],
    ["tool_use", "tool_use"],
    ["refusal", "refusal"],
    ["model_context_window_exceeded", "length"],
  ])("maps stop_reason %s to %s", async (wire, ours) => {
    const events = await run([textReply(["x"], wire)]).events;
    expect(last(events)).toMatchObject({ type: "done", partial: { stopReason: ours } });
  });

  it("keeps redacted_thinking as a thinking block with its opaque data", async () => {
    const events = await run([
      sseReply([
        messageStart(),
        blockStart(0, { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4a" }),
        blockStop(0),
        blockStart(1, { type: "text", text: "" }),
        delta(1, { type: "text_delta", text: "Done." }),
        blockStop(1),
        messageDelta("end_turn", 5),
        messageStop,
      ]),
    ]).events;
    expect(last(events).partial.content).toEqual([
      { type: "thinking", text: "", redactedData: "EmwKAhgBEgy3va3pzix/LafPsn4a", signedBy: API },
      { type: "text", text: "Done." },
    ]);
  });

  it("sends the thinking budget and raises max_tokens above it", async () => {
    const { fake, events } = run([textReply(["ok"])], {
      maxOutputTokens: 4000,
      thinking: { kind: "anthropic-budget", budgetTokens: 8000 },
    });
    await events;
    expect(fake.requests[0]?.body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 8000 },
      max_tokens: 9024,
    });
  });

  it("keeps max_tokens when it already exceeds the budget", async () => {
    const { fake, events } = run([textReply(["ok"])], {
      maxOutputTokens: 32000,
      thinking: { kind: "anthropic-budget", budgetTokens: 8000 },
    });
    await events;
    expect(fake.requests[0]?.body).toMatchObject({ max_tokens: 32000 });
  });

  it("sends back only Anthropic-signed thinking, with its signature; drops unsigned and foreign thinking", async () => {
    const context: LlmContext = {
      system: "",
      messages: [
        { role: "user", content: [{ type: "text", text: "Q1" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", text: "signed", signature: SIGNATURE, signedBy: API },
            { type: "thinking", text: "", redactedData: "opaque", signedBy: API },
            { type: "thinking", text: "unsigned, cut off before its signature" },
            { type: "thinking", text: "from elsewhere", signedBy: "openai-chat" },
            { type: "text", text: "A1" },
            { type: "text", text: "" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "Q2" }] },
      ],
    };
    const { fake, events } = run([textReply(["ok"])], { context });
    await events;
    const body = fake.requests[0]?.body;
    expect(body).not.toHaveProperty("system");
    expect(body).toMatchObject({
      messages: [
        { role: "user", content: [{ type: "text", text: "Q1" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "signed", signature: SIGNATURE },
            { type: "redacted_thinking", data: "opaque" },
            { type: "text", text: "A1" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "Q2" }] },
      ],
    });
  });

  it("strips a pasted /v1 from the base URL (the SDK adds it)", async () => {
    const { fake, events } = run([textReply(["ok"])], {
      provider: testProvider(API, { baseUrl: "http://localhost:4010/v1/" }),
    });
    await events;
    expect(fake.requests[0]?.url).toBe("http://localhost:4010/v1/messages");
  });

  it("turns a mid-stream overloaded_error event into an error that keeps the partial text", async () => {
    const events = await run([
      sseReply([
        messageStart(),
        blockStart(0, { type: "text", text: "" }),
        delta(0, { type: "text_delta", text: "Half an ans" }),
        sseEvent("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      ]),
    ]).events;
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    const end = last(events);
    expect(end.type === "error" && end.error).toMatchObject({ kind: "overloaded" });
    expect(end.type === "error" && end.error.message).toContain("Overloaded");
    expect(end.partial.content).toEqual([{ type: "text", text: "Half an ans" }]);
    expect(end.partial.stopReason).toBe("error");
  });

  it("reports a body that fails mid-way as a network error, keeping the partial", async () => {
    const events = await run([
      sseReply(
        [messageStart(), blockStart(0, { type: "text", text: "" }), delta(0, { type: "text_delta", text: "Part" })],
        "drop",
      ),
    ]).events;
    const end = last(events);
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    expect(end.type === "error" && end.error.kind).toBe("network");
    expect(end.partial.content).toEqual([{ type: "text", text: "Part" }]);
  });

  it("reports a body that closes before message_stop as a network error", async () => {
    const events = await run([
      sseReply([
        messageStart(),
        blockStart(0, { type: "text", text: "" }),
        delta(0, { type: "text_delta", text: "P" }),
      ]),
    ]).events;
    const end = last(events);
    expect(end.type === "error" && end.error).toMatchObject({
      kind: "network",
      message: "The connection closed before the reply finished.",
    });
  });

  it("ends with an aborted error (partial kept) when the signal aborts mid-stream", async () => {
    const controller = new AbortController();
    const fake = createFakeFetch([
      sseReply(
        [messageStart(), blockStart(0, { type: "text", text: "" }), delta(0, { type: "text_delta", text: "Before" })],
        "hang",
      ),
    ]);
    const stream = createAnthropicStream({ fetch: fake.fetch });
    const events = await collect(stream(testRequest(API, { signal: controller.signal })), (e) => {
      if (e.type === "text_delta") controller.abort();
    });
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    const end = last(events);
    expect(end.type === "error" && end.error).toEqual({ kind: "aborted", message: "Stopped." });
    expect(end.partial).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "Before" }] });
  });

  it("ends with an aborted error when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await run([textReply(["never"])], { signal: controller.signal }).events;
    expect(types(events)).toEqual(["start", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "aborted" }, partial: { stopReason: "aborted" } });
  });

  it.each([
    {
      name: "401 authentication_error",
      reply: jsonReply(401, {
        type: "error",
        error: { type: "authentication_error", message: "invalid x-api-key" },
        request_id: "req_011CSHoEeqs5C35K2UUqR7Fy",
      }),
      expected: {
        kind: "auth",
        status: 401,
        message: "The API key was rejected (401). Check it in Settings. Provider said: invalid x-api-key",
      },
    },
    {
      name: "429 rate_limit_error with retry-after",
      reply: jsonReply(
        429,
        {
          type: "error",
          error: {
            type: "rate_limit_error",
            message:
              "This request would exceed the rate limit for your organization of 30,000 input tokens per minute.",
          },
        },
        { "retry-after": "7" },
      ),
      expected: { kind: "rate_limit", status: 429, retryAfterMs: 7000 },
    },
    {
      name: "529 overloaded_error",
      reply: jsonReply(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      expected: { kind: "overloaded", status: 529 },
    },
    {
      name: "400 prompt is too long",
      reply: jsonReply(400, {
        type: "error",
        error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
      }),
      expected: { kind: "context_overflow", status: 400 },
    },
    {
      name: "500 api_error",
      reply: jsonReply(500, { type: "error", error: { type: "api_error", message: "Internal server error" } }),
      expected: { kind: "server", status: 500 },
    },
  ])("classifies an HTTP $name before any content", async ({ reply, expected }) => {
    const events = await run([reply]).events;
    expect(types(events)).toEqual(["start", "error"]);
    const end = last(events);
    expect(end.type === "error" && end.error).toMatchObject(expected);
    expect(end.partial).toMatchObject({ content: [], stopReason: "error" });
  });
});
