/**
 * The mock's Chat Completions wire format, proven with the real `openai` SDK (Node fetch).
 */
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, OPENAI_OVERFLOW_MESSAGE, startMockServer } from "./index";

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

const MODEL = "gpt-4o";

function ask(text: string) {
  return { model: MODEL, messages: [{ role: "user" as const, content: text }] };
}

type Collected = { text: string; reasoning: string; deltas: number; finish: string | null; usage: unknown };

/** Read a stream chunk by chunk, as the app's adapter does. */
async function collect(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>): Promise<Collected> {
  const out: Collected = { text: "", reasoning: "", deltas: 0, finish: null, usage: null };
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    const delta: Record<string, unknown> = { ...choice?.delta };
    if (typeof delta.content === "string" && delta.content !== "") {
      out.text += delta.content;
      out.deltas++;
    }
    if (typeof delta.reasoning_content === "string") out.reasoning += delta.reasoning_content;
    if (choice?.finish_reason) out.finish = choice.finish_reason;
    if (chunk.usage) out.usage = chunk.usage;
  }
  return out;
}

describe("openai streaming", () => {
  it("streams the default echo reply with finish_reason and an include_usage chunk", async () => {
    const stream = await client.chat.completions.create({
      ...ask("hello there, mock"),
      stream: true,
      stream_options: { include_usage: true },
    });
    const got = await collect(stream);
    expect(got.text).toBe("Echo: hello there, mock");
    expect(got.deltas).toBeGreaterThan(1);
    expect(got.finish).toBe("stop");
    expect(got.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
  });

  it("sends no usage chunk without include_usage, and ends with [DONE]", async () => {
    const res = await fetch(`${mock.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ ...ask("x"), stream: true }),
    });
    const lines = (await res.text()).split("\n").filter((l) => l.startsWith("data: "));
    expect(lines.at(-1)).toBe("data: [DONE]");
    expect(lines.some((l) => l.includes('"usage"'))).toBe(false);
  });

  it("streams reasoning_content before the content, and a length finish", async () => {
    mock.enqueue("openai", { thinking: "Pondering the question.", text: "Answer.", stopReason: "length" });
    const stream = await client.chat.completions.create({ ...ask("q"), stream: true });
    const got = await collect(stream);
    expect(got.reasoning).toBe("Pondering the question.");
    expect(got.text).toBe("Answer.");
    expect(got.finish).toBe("length");
  });

  it("assembles with the SDK's ChatCompletionStream helper", async () => {
    mock.enqueue("openai", { chunks: ["a", "b", "c"], usage: { input: 10, output: 3 } });
    const stream = client.chat.completions.stream({ ...ask("q"), stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe("abc");
    expect(completion.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
  });

  it("answers non-streaming requests with a chat.completion", async () => {
    mock.enqueue("openai", { text: "A summary." });
    const completion = await client.chat.completions.create(ask("summarize"));
    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]?.message).toMatchObject({ role: "assistant", content: "A summary." });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
  });
});

describe("openai faults", () => {
  it("401 → AuthenticationError (invalid_api_key)", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 401 } });
    const error = await client.chat.completions.create(ask("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key" });
  });

  it("429 → RateLimitError with retry-after", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 429, retryAfterSeconds: 3 } });
    const error = await client.chat.completions.create({ ...ask("x"), stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    if (!(error instanceof OpenAI.RateLimitError)) return;
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.headers.get("retry-after")).toBe("3");
  });

  it("400 → BadRequestError context_length_exceeded with the real message", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 400 } });
    const error = await client.chat.completions.create(ask("x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ code: "context_length_exceeded", param: "messages" });
    expect(error instanceof Error ? error.message : "").toContain(OPENAI_OVERFLOW_MESSAGE);
  });

  it("500 and 503 → InternalServerError", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 500 } }, { fault: { kind: "http", status: 503 } });
    const e500 = await client.chat.completions.create(ask("x")).catch((e: unknown) => e);
    const e503 = await client.chat.completions.create(ask("x")).catch((e: unknown) => e);
    expect(e500).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e500).toMatchObject({ status: 500, type: "server_error" });
    expect(e503).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e503).toMatchObject({ status: 503 });
  });

  it("a mid-stream error line throws APIError after the partial content", async () => {
    mock.enqueue("openai", { chunks: ["par", "tial", "!"], fault: { kind: "midstream_error", afterChunks: 2 } });
    const stream = await client.chat.completions.create({ ...ask("x"), stream: true });
    let text = "";
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(text).toBe("partial");
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: undefined, type: "server_error" });
  });

  it("a dropped socket fails the stream", async () => {
    mock.enqueue("openai", { chunks: ["a", "b"], fault: { kind: "drop", afterChunks: 1 } });
    const stream = await client.chat.completions.create({ ...ask("x"), stream: true });
    const error = await collect(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(mock.requests()[0]?.outcome).toBe("dropped");
  });

  it("a hanging stream waits for the client's abort", async () => {
    mock.enqueue("openai", { chunks: ["x", "y"], fault: { kind: "hang", afterChunks: 1 } });
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ ...ask("x"), stream: true }, { signal: controller.signal });
    let text = "";
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (text === "x") controller.abort();
    }
    expect(text).toBe("x");
    await expect.poll(() => mock.requests()[0]?.outcome).toBe("client_aborted");
  });
});

describe("openai requests", () => {
  it("lists models in the OpenAI shape", async () => {
    const page = await client.models.list();
    expect(page.data[0]).toMatchObject({ id: "gpt-4o", object: "model", owned_by: "grove-mock" });
    expect(typeof page.data[0]?.created).toBe("number");
  });

  it("strict mode rejects consecutive user messages and a leading assistant", async () => {
    mock.config({ strict: true });
    const error = await client.chat.completions
      .create({
        model: MODEL,
        messages: [
          { role: "system", content: "sys" },
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error instanceof Error ? error.message : "").toContain("Conversation roles must alternate");
    const ok = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: "c" },
      ],
    });
    expect(ok.choices[0]?.message.content).toBe("Echo: c");
    const rejected = mock.requests({ api: "openai" })[0];
    expect(rejected).toMatchObject({ status: 400, outcome: "completed" });
  });

  it("uses the configured reasoning field", async () => {
    mock.config({ openaiReasoningField: "reasoning" });
    mock.enqueue("openai", { thinking: "deep", text: "t" });
    const completion = await client.chat.completions.create(ask("q"));
    expect(completion.choices[0]?.message).toMatchObject({ reasoning: "deep", content: "t" });
  });

  it("records the Bearer key and body", async () => {
    await client.chat.completions.create(ask("remember me"));
    const [rec] = mock.requests({ api: "openai" });
    expect(rec?.headers.authorization).toBe("Bearer sk-test-1234567890");
    expect(rec?.path).toBe("/openai/v1/chat/completions");
    expect(rec?.body).toMatchObject({ model: MODEL, messages: [{ role: "user", content: "remember me" }] });
  });
});
