/**
 * The mock's Responses wire format (`POST /v1/responses`), proven with the real `openai` SDK (Node
 * fetch): the SDK parses every event the mock sends, and reasoning items round-trip.
 */
import OpenAI from "openai";
import type { ResponseInputItem, ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type MockServer, OPENAI_OVERFLOW_MESSAGE, startMockServer } from "./index";
import { encryptedReasoning } from "./openai-responses";
import { lastUserText, requestMessages, requestSystem } from "./wire";

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

const MODEL = "gpt-5";

function params(input: string | ResponseInputItem[], extra: Record<string, unknown> = {}) {
  return {
    model: MODEL,
    input,
    stream: true as const,
    store: false,
    include: ["reasoning.encrypted_content" as const],
    max_output_tokens: 1024,
    ...extra,
  };
}

async function drain(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const out: ResponseStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const textOf = (events: ResponseStreamEvent[]) =>
  events.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : [])).join("");
const summaryOf = (events: ResponseStreamEvent[]) =>
  events.flatMap((e) => (e.type === "response.reasoning_summary_text.delta" ? [e.delta] : [])).join("");

describe("openai responses streaming (parsed by the SDK)", () => {
  it("streams the echo reply as the API's event sequence, ending with response.completed and usage", async () => {
    const events = await drain(await client.responses.create(params("hello there, mock")));
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(types.slice(-4)).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(textOf(events)).toBe("Echo: hello there, mock");
    const done = events.at(-1);
    if (done?.type !== "response.completed") throw new Error("no response.completed");
    expect(done.response.status).toBe("completed");
    expect(done.response.usage).toMatchObject({ input_tokens: 5, output_tokens: 6, total_tokens: 11 });
    expect(done.response.output).toEqual([
      expect.objectContaining({ type: "message", role: "assistant", status: "completed" }),
    ]);
  });

  it("turns scripted thinking into a reasoning item: summary deltas, then encrypted content on output_item.done", async () => {
    mock.enqueue("openai", { thinking: "Think about the tides first.", text: "High tide at noon." });
    const events = await drain(await client.responses.create(params("tides?")));
    expect(summaryOf(events)).toBe("Think about the tides first.");
    expect(textOf(events)).toBe("High tide at noon.");

    const added = events.find((e) => e.type === "response.output_item.added");
    if (added?.type !== "response.output_item.added" || added.item.type !== "reasoning")
      throw new Error("no reasoning");
    expect(added.output_index).toBe(0);
    expect(added.item.summary).toEqual([]);

    const done = events.find((e) => e.type === "response.output_item.done");
    if (done?.type !== "response.output_item.done" || done.item.type !== "reasoning") throw new Error("no reasoning");
    expect(done.item.id).toMatch(/^rs_/);
    expect(done.item.summary).toEqual([{ type: "summary_text", text: "Think about the tides first." }]);
    expect(done.item.encrypted_content).toBe(encryptedReasoning(done.item.id, "Think about the tides first."));

    // The text delta events address the message item that follows the reasoning.
    const delta = events.find((e) => e.type === "response.output_text.delta");
    expect(delta).toMatchObject({ output_index: 1, content_index: 0 });
  });

  it("an output-length stop ends with response.incomplete (reason max_output_tokens)", async () => {
    mock.enqueue("openai", { text: "cut short", stopReason: "length", usage: { input: 10, output: 3 } });
    const events = await drain(await client.responses.create(params("go")));
    const last = events.at(-1);
    if (last?.type !== "response.incomplete") throw new Error(`ended with ${String(last?.type)}`);
    expect(last.response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(last.response.usage).toMatchObject({ input_tokens: 10, output_tokens: 3 });
    expect(textOf(events)).toBe("cut short");
  });

  it("a mid-stream error is an `error` event the SDK passes on, after the text so far", async () => {
    mock.enqueue("openai", { chunks: ["one ", "two ", "three"], fault: { kind: "midstream_error", afterChunks: 2 } });
    const events = await drain(await client.responses.create(params("go")));
    expect(textOf(events)).toBe("one two ");
    expect(events.at(-1)).toMatchObject({ type: "error", code: "server_error" });
    expect(events.some((e) => e.type === "response.completed")).toBe(false);
  });

  it("HTTP faults use the API's error bodies; an overflow names `input`", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 400 } });
    const err = await client.responses.create(params("big")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      message: OPENAI_OVERFLOW_MESSAGE,
      code: "context_length_exceeded",
      param: "input",
    });

    mock.enqueue("openai", { fault: { kind: "http", status: 429, retryAfterSeconds: 2 } });
    const limited = await client.responses.create(params("again")).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers?.get("retry-after")).toBe("2");
  });

  it("hold {afterChunks}: streams the first deltas, parks until release(), then completes", async () => {
    mock.enqueue("openai", { chunks: ["FIRST ", "SECOND"], hold: { afterChunks: 1 } });
    const stream = await client.responses.create(params("go"));
    const seen: ResponseStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of stream) seen.push(event);
    })();
    await vi.waitFor(() => expect(mock.held("openai")).toBe(1), { timeout: 5_000, interval: 5 });
    await vi.waitFor(() => expect(textOf(seen)).toBe("FIRST "), { timeout: 5_000, interval: 5 });
    expect(seen.some((e) => e.type === "response.completed")).toBe(false);
    mock.release("openai");
    await reading;
    expect(textOf(seen)).toBe("FIRST SECOND");
    expect(seen.at(-1)?.type).toBe("response.completed");
  });

  it("hold: true parks before the response starts", async () => {
    mock.enqueue("openai", { text: "later", hold: true });
    const pending = client.responses.create(params("go"));
    await vi.waitFor(() => expect(mock.held("openai")).toBe(1), { timeout: 5_000, interval: 5 });
    expect(mock.requests({ api: "openai" })[0]?.status).toBe(0);
    mock.release("openai");
    expect(textOf(await drain(await pending))).toBe("later");
  });

  it("answers a non-streaming request with the whole response object", async () => {
    mock.enqueue("openai", { thinking: "Hmm.", text: "Done." });
    const res = await client.responses.create({ model: MODEL, input: "x", store: false });
    expect(res.status).toBe("completed");
    expect(res.output_text).toBe("Done.");
    expect(res.output[0]).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: "Hmm." }] });
  });
});

describe("openai responses requests", () => {
  it("records the request and reads instructions, turns and reasoning items like chat messages", async () => {
    mock.enqueue("openai", { thinking: "Plan it.", text: "First answer." });
    const first = await drain(await client.responses.create(params("first question", { instructions: "Be terse." })));
    const done = first.find((e) => e.type === "response.output_item.done");
    if (done?.type !== "response.output_item.done" || done.item.type !== "reasoning") throw new Error("no reasoning");
    const item = done.item;

    const input: ResponseInputItem[] = [
      { type: "message", role: "user", content: "first question" },
      { type: "reasoning", id: item.id, summary: item.summary, encrypted_content: item.encrypted_content ?? null },
      { type: "message", role: "assistant", content: "First answer." },
      { type: "message", role: "user", content: [{ type: "input_text", text: "second question" }] },
    ];
    const second = await drain(await client.responses.create(params(input, { instructions: "Be terse." })));
    expect(textOf(second)).toBe("Echo: second question");

    const [, rec] = mock.requests({ api: "openai" });
    if (!rec) throw new Error("not recorded");
    expect(rec.path).toBe("/openai/v1/responses");
    expect((rec.body as { input: unknown[] }).input[1]).toEqual({
      type: "reasoning",
      id: item.id,
      summary: [{ type: "summary_text", text: "Plan it." }],
      encrypted_content: item.encrypted_content,
    });
    expect(requestSystem(rec)).toBe("Be terse.");
    expect(lastUserText(rec)).toBe("second question");
    expect(requestMessages(rec)).toEqual([
      { role: "system", text: "Be terse.", blockTypes: ["text"] },
      { role: "user", text: "first question", blockTypes: ["text"] },
      { role: "assistant", text: "First answer.", blockTypes: ["reasoning", "text"] },
      { role: "user", text: "second question", blockTypes: ["text"] },
    ]);
  });

  it("rejects a reasoning item whose encrypted content it did not issue, or one without it under store:false", async () => {
    const forged: ResponseInputItem[] = [
      { type: "message", role: "user", content: "q" },
      { type: "reasoning", id: "rs_other", summary: [], encrypted_content: encryptedReasoning("rs_else", "x") },
      { type: "message", role: "assistant", content: "a" },
      { type: "message", role: "user", content: "q2" },
    ];
    const err = await client.responses.create(params(forged)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      code: "invalid_encrypted_content",
    });

    const bare: ResponseInputItem[] = [{ type: "reasoning", id: "rs_x", summary: [] }];
    const missing = await client.responses.create(params(bare)).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.BadRequestError);
    expect(mock.queued("openai")).toBe(0);
    expect(mock.requests({ api: "openai" }).map((r) => r.status)).toEqual([400, 400]);
  });

  it("a matched script (lastUser) answers the Responses request it fits", async () => {
    mock.enqueue("openai", { match: { lastUser: "banana" }, text: "Yellow." }, { text: "Other." });
    const events = await drain(await client.responses.create(params("what colour is a banana?")));
    expect(textOf(events)).toBe("Yellow.");
    expect(mock.queued("openai")).toBe(1);
  });
});
