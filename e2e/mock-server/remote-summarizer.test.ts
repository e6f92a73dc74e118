/**
 * The mock's remote summarizer and count_tokens modes, driven over HTTP: what Grove's e2e specs
 * rely on (recorded requests, each failure mode, the configured count).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./index";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 0 } });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

const ORIGIN = "http://127.0.0.1:4173";
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });

describe("remote summarizer", () => {
  it("answers { summary } with CORS and records the request and its headers", async () => {
    mock.config({ remoteSummary: "S-1" });
    const res = await post(
      mock.remoteSummarizerUrl,
      { systemPrompt: "sys", prompt: "p" },
      { authorization: "Bearer t" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(await res.json()).toMatchObject({ summary: "S-1" });
    const [rec] = mock.requests().filter((r) => r.path === "/remote-summarizer");
    expect(rec).toMatchObject({ api: null, method: "POST", body: { systemPrompt: "sys", prompt: "p" } });
    expect(rec?.headers.authorization).toBe("Bearer t");
  });

  it("fails as configured: HTTP 500, bad JSON, no summary, no CORS; rejects a wrong body", async () => {
    const body = { systemPrompt: "s", prompt: "p" };
    mock.config({ remoteSummarizer: "http-500" });
    expect((await post(mock.remoteSummarizerUrl, body)).status).toBe(500);
    mock.config({ remoteSummarizer: "bad-json" });
    expect(await (await post(mock.remoteSummarizerUrl, body)).text()).toBe("{ not json");
    mock.config({ remoteSummarizer: "no-summary" });
    expect(await (await post(mock.remoteSummarizerUrl, body)).json()).not.toHaveProperty("summary");
    mock.config({ remoteSummarizer: "no-cors" });
    const noCors = await post(mock.remoteSummarizerUrl, body);
    expect(noCors.status).toBe(200);
    expect(noCors.headers.get("access-control-allow-origin")).toBeNull();
    mock.config({ remoteSummarizer: "ok" });
    expect((await post(mock.remoteSummarizerUrl, { prompt: "p" })).status).toBe(400);
  });
});

describe("count_tokens", () => {
  const body = { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "abcdefgh" }] };
  const url = () => `${mock.anthropicBaseUrl}/v1/messages/count_tokens`;
  it("counts chars / 4 by default, a configured number, or fails with 404", async () => {
    expect(await (await post(url(), body, { "x-api-key": "k" })).json()).toEqual({ input_tokens: 2 });
    mock.config({ countTokens: 777 });
    expect(await (await post(url(), body, { "x-api-key": "k" })).json()).toEqual({ input_tokens: 777 });
    mock.config({ countTokens: "fail" });
    expect((await post(url(), body, { "x-api-key": "k" })).status).toBe(404);
  });
});
