/**
 * The mock provider, seen from a real Chromium page — without the app. The page is the mock's own
 * blank page at http://127.0.0.1:PORT and every call goes to http://localhost:PORT: a different origin,
 * so Chromium applies real CORS (preflights with the SDKs' headers, exposed headers, SSE bodies), as it
 * will for the app at http://127.0.0.1:4173.
 *
 * Runs without the app server: `GROVE_E2E_NO_APP=1 npx playwright test e2e/smoke-mock.spec.ts`.
 */
import { expect, type MockServer, test } from "./fixtures";

/** The same server under another origin (localhost vs 127.0.0.1). */
function crossOrigin(mock: MockServer): string {
  return `http://localhost:${mock.port}`;
}

test.beforeEach(async ({ page, mock }) => {
  await page.goto(`${mock.url}/__mock/blank`);
});

test("anthropic: preflight with the SDK's headers, then SSE assembled in the page", async ({ page, mock }) => {
  const result = await page.evaluate(async (base) => {
    const res = await fetch(`${base}/anthropic/v1/messages`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk-ant-browser",
        "x-api-key": "sk-ant-browser",
        "anthropic-version": "2023-06-01",
        "anthropic-dangerous-direct-browser-access": "true",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 256,
        stream: true,
        messages: [{ role: "user", content: "hello from chromium" }],
      }),
    });
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let raw = "";
    let reads = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      raw += decoder.decode(value, { stream: true });
    }
    const events = raw
      .split("\n\n")
      .filter((block) => block.trim() !== "")
      .map((block) => {
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as {
          delta?: { type?: string; text?: string };
        };
        return { event, data };
      });
    const text = events
      .filter((e) => e.event === "content_block_delta" && e.data.delta?.type === "text_delta")
      .map((e) => e.data.delta?.text ?? "")
      .join("");
    return {
      status: res.status,
      contentType: res.headers.get("content-type"),
      requestId: res.headers.get("request-id"),
      names: events.map((e) => e.event),
      text,
      reads,
    };
  }, crossOrigin(mock));

  expect(result.status).toBe(200);
  expect(result.contentType).toContain("text/event-stream");
  expect(result.requestId).toMatch(/^req_/);
  expect(result.text).toBe("Echo: hello from chromium");
  expect(result.names[0]).toBe("message_start");
  expect(result.names).toContain("ping");
  expect(result.names.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);

  const [preflight, post] = mock.requests({ api: "anthropic", includePreflight: true });
  expect(preflight?.method).toBe("OPTIONS");
  expect(preflight?.headers.origin).toBe(mock.url);
  const asked = (preflight?.headers["access-control-request-headers"] ?? "").split(",").map((h) => h.trim());
  expect(asked).toEqual(expect.arrayContaining(["authorization", "x-api-key", "anthropic-version", "content-type"]));
  expect(post).toMatchObject({ method: "POST", path: "/anthropic/v1/messages", status: 200, outcome: "completed" });
  expect(post?.headers.origin).toBe(mock.url);
});

test("openai: SSE chunks with include_usage and [DONE]", async ({ page, mock }) => {
  mock.enqueue("openai", { chunks: ["Hello", ", ", "browser"], thinking: "brief thought" });
  const result = await page.evaluate(async (base) => {
    const res = await fetch(`${base}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-browser", "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-4o",
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const lines = (await res.text()).split("\n").filter((l) => l.startsWith("data: "));
    type Chunk = {
      choices: Array<{ delta: { content?: string; reasoning_content?: string }; finish_reason: string | null }>;
      usage?: { total_tokens: number } | null;
    };
    const chunks = lines.filter((l) => l !== "data: [DONE]").map((l) => JSON.parse(l.slice(6)) as Chunk);
    return {
      status: res.status,
      last: lines.at(-1),
      text: chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""),
      reasoning: chunks.map((c) => c.choices[0]?.delta.reasoning_content ?? "").join(""),
      finish: chunks.map((c) => c.choices[0]?.finish_reason).find((f) => f),
      usage: chunks.at(-1)?.usage ?? null,
    };
  }, crossOrigin(mock));

  expect(result).toMatchObject({
    status: 200,
    last: "data: [DONE]",
    text: "Hello, browser",
    reasoning: "brief thought",
    finish: "stop",
  });
  expect(result.usage?.total_tokens).toBeGreaterThan(0);
  expect(mock.requests({ api: "openai", includePreflight: true }).map((r) => r.method)).toEqual(["OPTIONS", "POST"]);
});

test("errors are readable cross-origin, retry-after included", async ({ page, mock }) => {
  mock.enqueue("anthropic", { fault: { kind: "http", status: 429, retryAfterSeconds: 7 } });
  mock.enqueue("openai", { fault: { kind: "http", status: 400 } });
  const result = await page.evaluate(async (base) => {
    const anthropic = await fetch(`${base}/anthropic/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "x" }] }),
    });
    const openai = await fetch(`${base}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }),
    });
    return {
      anthropic: {
        status: anthropic.status,
        retryAfter: anthropic.headers.get("retry-after"),
        body: await anthropic.json(),
      },
      openai: { status: openai.status, body: await openai.json() },
    };
  }, crossOrigin(mock));

  expect(result.anthropic).toMatchObject({
    status: 429,
    retryAfter: "7",
    body: { type: "error", error: { type: "rate_limit_error" } },
  });
  expect(result.openai).toMatchObject({ status: 400, body: { error: { code: "context_length_exceeded" } } });
});

test("a hanging stream is aborted by the page, and the mock sees the abort", async ({ page, mock }) => {
  mock.enqueue("anthropic", { chunks: ["first ", "never"], fault: { kind: "hang", afterChunks: 1 } });
  const firstText = await page.evaluate(async (base) => {
    const controller = new AbortController();
    const res = await fetch(`${base}/anthropic/v1/messages`, {
      method: "POST",
      signal: controller.signal,
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 10, stream: true, messages: [{ role: "user", content: "x" }] }),
    });
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let raw = "";
    while (!raw.includes("text_delta")) {
      const { done, value } = await reader.read();
      if (done) return "stream ended early";
      raw += decoder.decode(value, { stream: true });
    }
    controller.abort();
    return /"text_delta","text":"([^"]*)"/.exec(raw)?.[1] ?? "";
  }, crossOrigin(mock));

  expect(firstText).toBe("first ");
  await expect.poll(() => mock.requests({ api: "anthropic" })[0]?.outcome).toBe("client_aborted");
});

test("the control API can be driven from the page", async ({ page, mock }) => {
  const text = await page.evaluate(async (base) => {
    const queued = await fetch(`${base}/__mock/enqueue`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api: "openai", scripts: [{ text: "scripted from the page" }] }),
    });
    if (!queued.ok) throw new Error(`enqueue failed: ${queued.status}`);
    const res = await fetch(`${base}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }),
    });
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    return body.choices[0]?.message.content;
  }, crossOrigin(mock));

  expect(text).toBe("scripted from the page");
  expect(mock.queued()).toBe(0);
});
