import { describe, expect, it } from "vitest";
import type { LlmContext } from "../core/session/context";
import type { ReasoningBlock } from "../core/session/entries";
import { isRetryable } from "./classify-error";
import { createOpenAIResponsesStream } from "./openai-responses";
import { createFakeFetch, type FakeReply, jsonReply, sseEvent, sseReply } from "./testing/fake-fetch";
import { collect, last, testRequest, types } from "./testing/requests";
import type { StreamRequest } from "./types";

const API = "openai-responses" as const;

// ---- wire fixtures (event shapes as api.openai.com sends them for POST /v1/responses) ----------

let seq = 0;
function ev(type: string, data: Record<string, unknown> = {}): string {
  return sseEvent(type, { type, sequence_number: seq++, ...data });
}

const USAGE = {
  input_tokens: 1200,
  input_tokens_details: { cached_tokens: 1024 },
  output_tokens: 40,
  output_tokens_details: { reasoning_tokens: 28 },
  total_tokens: 1240,
};

function response(status: string, extra: Record<string, unknown> = {}) {
  return {
    id: "resp_67ccd2bed1ec8190",
    object: "response",
    created_at: 1741476542,
    status,
    error: null,
    incomplete_details: null,
    model: "gpt-5-2025-08-07",
    output: [],
    usage: null,
    ...extra,
  };
}

const ENCRYPTED = "gAAAAABoISQ2-opaque-blob==";

function reasoningEvents(id: string, index: number, parts: string[]): string[] {
  const where = { item_id: id, output_index: index, summary_index: 0 };
  return [
    ev("response.output_item.added", {
      output_index: index,
      item: { id, type: "reasoning", summary: [], encrypted_content: null },
    }),
    ev("response.reasoning_summary_part.added", { ...where, part: { type: "summary_text", text: "" } }),
    ...parts.map((delta) => ev("response.reasoning_summary_text.delta", { ...where, delta })),
    ev("response.reasoning_summary_text.done", { ...where, text: parts.join("") }),
    ev("response.output_item.done", {
      output_index: index,
      item: {
        id,
        type: "reasoning",
        summary: [{ type: "summary_text", text: parts.join("") }],
        encrypted_content: ENCRYPTED,
      },
    }),
  ];
}

function textEvents(index: number, parts: string[]): string[] {
  const where = { item_id: "msg_67ccd2bf17f0", output_index: index, content_index: 0 };
  return [
    ev("response.output_item.added", {
      output_index: index,
      item: { id: "msg_67ccd2bf17f0", type: "message", status: "in_progress", content: [], role: "assistant" },
    }),
    ...parts.map((delta) => ev("response.output_text.delta", { ...where, delta, logprobs: [] })),
    ev("response.output_text.done", { ...where, text: parts.join(""), logprobs: [] }),
  ];
}

function completed(usage: unknown = USAGE): string {
  return ev("response.completed", { response: response("completed", { usage }) });
}

function textReply(parts: string[]): FakeReply {
  return sseReply([
    ev("response.created", { response: response("in_progress") }),
    ...textEvents(0, parts),
    completed(),
  ]);
}

function run(replies: FakeReply[], patch: Partial<StreamRequest> = {}) {
  const fake = createFakeFetch(replies);
  const stream = createOpenAIResponsesStream({ fetch: fake.fetch });
  return { fake, events: collect(stream(testRequest(API, patch))) };
}

// ---- tests --------------------------------------------------------------------------------------

describe("streamOpenAIResponses", () => {
  it("streams text through responses.create (store false, encrypted reasoning included), maps usage, ends with done", async () => {
    const { fake, events: pending } = run([textReply(["Hel", "lo"])]);
    const events = await pending;
    expect(types(events)).toEqual(["start", "text_delta", "text_delta", "done"]);
    expect(last(events).partial).toEqual({
      content: [{ type: "text", text: "Hello" }],
      providerId: "openai",
      api: API,
      model: "gpt-4o",
      usage: { input: 1200, output: 40, cacheRead: 1024 },
      stopReason: "end",
    });
    const [request] = fake.requests;
    expect(request?.url).toBe("https://api.openai.com/v1/responses");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body).toEqual({
      model: "gpt-4o",
      input: [{ type: "message", role: "user", content: "Hello" }],
      instructions: "You are terse.",
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      max_output_tokens: 1024,
    });
  });

  it("keeps a reasoning item as a block (id, summary, encrypted content), its summary streamed as thinking", async () => {
    const { fake, events: pending } = run(
      [
        sseReply([
          ev("response.created", { response: response("in_progress") }),
          ...reasoningEvents("rs_6820f383d7c08191", 0, ["**Weighing", " the options**"]),
          ...textEvents(1, ["Pick B."]),
          completed(),
        ]),
      ],
      { model: "gpt-5", thinking: { kind: "openai-effort", effort: "high" } },
    );
    const events = await pending;
    expect(types(events)).toEqual(["start", "thinking_delta", "thinking_delta", "text_delta", "done"]);
    expect(events[1]).toMatchObject({ type: "thinking_delta", delta: "**Weighing" });
    // The streaming partial shows the summary so far (before the item is done).
    expect(events[2]?.partial.content[0]).toMatchObject({ type: "reasoning", summary: ["**Weighing the options**"] });
    expect(last(events).partial.content).toEqual([
      {
        type: "reasoning",
        api: API,
        provider: "openai",
        id: "rs_6820f383d7c08191",
        encryptedContent: ENCRYPTED,
        summary: ["**Weighing the options**"],
      },
      { type: "text", text: "Pick B." },
    ]);
    expect(fake.requests[0]?.body).toMatchObject({ model: "gpt-5", reasoning: { effort: "high", summary: "auto" } });
  });

  it("sends reasoning items back verbatim before their turn's text; foreign thinking never reaches the wire", async () => {
    const reasoning: ReasoningBlock = {
      type: "reasoning",
      api: API,
      provider: "openai",
      id: "rs_1",
      encryptedContent: ENCRYPTED,
      summary: ["Part one", "Part two"],
    };
    const context: LlmContext = {
      system: "",
      messages: [
        { role: "user", content: [{ type: "text", text: "Q1" }] },
        { role: "assistant", content: [reasoning, { type: "text", text: "A1" }] },
        { role: "user", content: [{ type: "text", text: "Q2" }] },
      ],
    };
    const { fake, events } = run([textReply(["ok"])], { context });
    await events;
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty("instructions");
    expect(body.input).toEqual([
      { type: "message", role: "user", content: "Q1" },
      {
        type: "reasoning",
        id: "rs_1",
        summary: [
          { type: "summary_text", text: "Part one" },
          { type: "summary_text", text: "Part two" },
        ],
        encrypted_content: ENCRYPTED,
      },
      { type: "message", role: "assistant", content: "A1" },
      { type: "message", role: "user", content: "Q2" },
    ]);
  });

  it("an incomplete response (max_output_tokens) is an output-length stop, keeping text and usage", async () => {
    const events = await run([
      sseReply([
        ev("response.created", { response: response("in_progress") }),
        ...textEvents(0, ["Partial ", "answer"]),
        ev("response.incomplete", {
          response: response("incomplete", { incomplete_details: { reason: "max_output_tokens" }, usage: USAGE }),
        }),
      ]),
    ]).events;
    expect(last(events)).toMatchObject({
      type: "done",
      partial: { stopReason: "length", content: [{ type: "text", text: "Partial answer" }], usage: { output: 40 } },
    });
  });

  it("an `error` event mid-stream ends in error through the classifier, keeping the partial text", async () => {
    const events = await run([
      sseReply([
        ev("response.created", { response: response("in_progress") }),
        ...textEvents(0, ["Half"]),
        ev("error", { code: "server_error", message: "The server had an error processing your request.", param: null }),
      ]),
    ]).events;
    const end = last(events);
    expect(end.type).toBe("error");
    if (end.type !== "error") return;
    expect(end.error.kind).toBe("server");
    expect(end.error.message).toContain("The server had an error processing your request.");
    expect(end.partial).toMatchObject({ stopReason: "error", content: [{ type: "text", text: "Half" }] });
  });

  it("response.failed is an error with the response's own error", async () => {
    const events = await run([
      sseReply([
        ev("response.created", { response: response("in_progress") }),
        ev("response.failed", {
          response: response("failed", { error: { code: "rate_limit_exceeded", message: "Rate limit reached." } }),
        }),
      ]),
    ]).events;
    expect(last(events)).toMatchObject({ type: "error", error: { kind: "rate_limit" } });
  });

  it("an HTTP overflow error is classified as context_overflow and not retryable", async () => {
    const events = await run([
      jsonReply(400, {
        error: {
          message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
          type: "invalid_request_error",
          param: "input",
          code: "context_length_exceeded",
        },
      }),
    ]).events;
    const end = last(events);
    expect(end).toMatchObject({ type: "error", error: { kind: "context_overflow", status: 400 } });
    if (end.type === "error") expect(isRetryable(end.error)).toBe(false);
  });

  it("a body that closes without response.completed is a dropped connection (network), not a finished reply", async () => {
    const events = await run([
      sseReply([ev("response.created", { response: response("in_progress") }), ...textEvents(0, ["Cut"])]),
    ]).events;
    expect(last(events)).toMatchObject({
      type: "error",
      error: { kind: "network" },
      partial: { content: [{ type: "text", text: "Cut" }] },
    });
  });

  it("a refusal delta is shown as text and ends with stopReason refusal", async () => {
    const events = await run([
      sseReply([
        ev("response.created", { response: response("in_progress") }),
        ev("response.refusal.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: "I can't help." }),
        completed(),
      ]),
    ]).events;
    expect(last(events)).toMatchObject({
      type: "done",
      partial: { stopReason: "refusal", content: [{ type: "text", text: "I can't help." }] },
    });
  });

  it("aborting mid-stream ends with an aborted error", async () => {
    const controller = new AbortController();
    const fake = createFakeFetch([
      sseReply([ev("response.created", { response: response("in_progress") }), ...textEvents(0, ["a"])], "hang"),
    ]);
    const stream = createOpenAIResponsesStream({ fetch: fake.fetch });
    const events = await collect(stream(testRequest(API, { signal: controller.signal })), (e) => {
      if (e.type === "text_delta") controller.abort();
    });
    expect(last(events)).toMatchObject({
      type: "error",
      error: { kind: "aborted" },
      partial: { stopReason: "aborted" },
    });
  });
});
