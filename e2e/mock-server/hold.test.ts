/**
 * `hold` scripts: a response parks until the test calls `release()`, so an end-to-end test can look at
 * a transient state (a retry countdown, a half-written document) for as long as it needs, on any
 * machine, and then let the exchange go on. Waits here are on the mock's state (`held()`), never on time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type Api, type MockServer, startMockServer } from "./index";

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

const anthropicBody = (text: string, stream = false) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  stream,
  messages: [{ role: "user", content: text }],
});

const openaiBody = (text: string, stream = false) => ({
  model: "gpt-4o",
  stream,
  messages: [{ role: "user", content: text }],
});

function ask(api: Api, body: unknown, signal?: AbortSignal): Promise<Response> {
  const url = api === "anthropic" ? `${mock.anthropicBaseUrl}/v1/messages` : `${mock.openaiBaseUrl}/chat/completions`;
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", authorization: "Bearer k" },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** Resolves once `n` responses are parked (polling the mock's state). */
async function heldCount(n: number, api?: Api): Promise<void> {
  await vi.waitFor(() => expect(mock.held(api)).toBe(n), { timeout: 5_000, interval: 5 });
}

/** Tracks whether a promise has settled, without waiting for it. */
function track<T>(promise: Promise<T>): { readonly settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

/** Reads an SSE body until `until` appears in what arrived so far; returns the text read. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, until: string, sofar = ""): Promise<string> {
  const decoder = new TextDecoder();
  let text = sofar;
  while (!text.includes(until)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended before "${until}": ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("hold: true", () => {
  it("parks an error response before its status is sent, until release()", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 429, retryAfterSeconds: 1 }, hold: true });
    const pending = ask("anthropic", anthropicBody("busy?"));
    const state = track(pending);
    await heldCount(1, "anthropic");
    expect(state.settled).toBe(false);
    expect(mock.requests()[0]).toMatchObject({ status: 0, outcome: "pending" });
    expect(mock.held("openai")).toBe(0);

    expect(mock.release()).toBe(1);
    const res = await pending;
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(mock.held()).toBe(0);
    expect(mock.release()).toBe(0);
  });

  it("parks a non-streaming reply, and only the released api goes on", async () => {
    mock.enqueue("anthropic", { text: "from anthropic", hold: true });
    mock.enqueue("openai", { text: "from openai", hold: { afterChunks: 1 } });
    const a = ask("anthropic", anthropicBody("a"));
    const o = ask("openai", openaiBody("o"));
    await heldCount(2);
    expect(mock.release("openai")).toBe(1);
    expect(await (await o).json()).toMatchObject({ choices: [{ message: { content: "from openai" } }] });
    expect(mock.held("anthropic")).toBe(1);
    expect(mock.release("anthropic")).toBe(1);
    expect(await (await a).json()).toMatchObject({ content: [{ text: "from anthropic" }] });
  });

  it("ends when the client aborts: nothing stays parked, the request is recorded as aborted", async () => {
    mock.enqueue("anthropic", { text: "never read", hold: true });
    const controller = new AbortController();
    const pending = ask("anthropic", anthropicBody("stop"), controller.signal);
    await heldCount(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await heldCount(0);
    await vi.waitFor(() => expect(mock.requests()[0]?.outcome).toBe("client_aborted"), { interval: 5 });
  });

  it("reset() drops a parked response and leaves nothing held", async () => {
    mock.enqueue("openai", { text: "dropped", hold: true });
    const pending = ask("openai", openaiBody("x"));
    await heldCount(1);
    mock.reset();
    expect(mock.held()).toBe(0);
    await expect(pending).rejects.toThrow();
  });
});

describe("hold: {afterChunks}", () => {
  for (const api of ["anthropic", "openai"] as const) {
    it(`${api}: streams the first deltas, parks until release(), then finishes the reply`, async () => {
      mock.enqueue(api, { chunks: ["FIRST-PART ", "SECOND-PART"], hold: { afterChunks: 1 } });
      const res = await ask(api, api === "anthropic" ? anthropicBody("go", true) : openaiBody("go", true));
      expect(res.status).toBe(200);
      const reader = res.body?.getReader();
      if (!reader) throw new Error("no body");
      const first = await readUntil(reader, "FIRST-PART");
      await heldCount(1, api);
      expect(first).not.toContain("SECOND-PART");
      expect(mock.requests()[0]?.outcome).toBe("pending");

      mock.release(api);
      const all = await readUntil(reader, api === "anthropic" ? "message_stop" : "[DONE]", first);
      expect(all).toContain("SECOND-PART");
      await vi.waitFor(() => expect(mock.requests()[0]?.outcome).toBe("completed"), { interval: 5 });
    });
  }

  it("clamps afterChunks to the reply's length: parks before the end of the stream", async () => {
    mock.enqueue("openai", { chunks: ["only"], hold: { afterChunks: 9 } });
    const res = await ask("openai", openaiBody("go", true));
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const first = await readUntil(reader, "only");
    await heldCount(1);
    expect(first).not.toContain("[DONE]");
    mock.release();
    expect(await readUntil(reader, "[DONE]", first)).toContain("finish_reason");
  });
});

describe("over the HTTP control API", () => {
  const control = (path: string, body?: unknown): Promise<Response> =>
    fetch(`${mock.url}/__mock${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("enqueues a hold, counts it and releases it", async () => {
    await control("/enqueue", { api: "openai", script: { text: "later", hold: true } });
    const pending = ask("openai", openaiBody("x"));
    await heldCount(1);
    expect(await (await control("/held?api=openai")).json()).toEqual({ held: 1 });
    expect(await (await control("/held?api=anthropic")).json()).toEqual({ held: 0 });
    expect(await (await control("/release", { api: "openai" })).json()).toEqual({ released: 1 });
    expect(await (await pending).json()).toMatchObject({ choices: [{ message: { content: "later" } }] });
  });

  it("rejects a malformed hold with a reason", async () => {
    const res = await control("/enqueue", { api: "anthropic", script: { hold: { after: 1 } } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("body.script.hold");
    const bad = await control("/enqueue", { api: "anthropic", script: { hold: false } });
    expect(bad.status).toBe(400);
    expect(mock.queued()).toBe(0);
  });
});
