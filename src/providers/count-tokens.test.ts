/**
 * The counting adapter over a fake fetch: the request is the stream's own params minus
 * max_tokens/stream, to the provider's host only, with its key; every failure is a value.
 */
import { describe, expect, it } from "vitest";
import { buildParams } from "./anthropic";
import { countTokensParams, createCountTokens } from "./count-tokens";
import { createFakeFetch, jsonReply } from "./testing/fake-fetch";
import { testProvider, testRequest } from "./testing/requests";

const API = "anthropic-messages" as const;

describe("countTokens", () => {
  it("POSTs the exact request's params to /v1/messages/count_tokens and returns input_tokens", async () => {
    const fake = createFakeFetch([jsonReply(200, { input_tokens: 4321 })]);
    const req = testRequest(API, { thinking: { kind: "anthropic-budget", budgetTokens: 2048 } });
    expect(await createCountTokens({ fetch: fake.fetch })(req)).toEqual({ ok: true, inputTokens: 4321 });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("https://api.anthropic.com/v1/messages/count_tokens");
    expect(`${sent.headers["x-api-key"] ?? ""} ${sent.headers.authorization ?? ""}`).toContain("sk-ant-test");
    const { max_tokens: _m, stream: _s, ...same } = buildParams(req);
    expect(sent.body).toEqual(same);
    expect(sent.body).toEqual(await countTokensParams(req));
    expect(sent.body).not.toHaveProperty("max_tokens");
    expect(sent.body).not.toHaveProperty("stream");
  });

  it("sends to a custom Anthropic-API host only, never the official one", async () => {
    const fake = createFakeFetch([jsonReply(200, { input_tokens: 7 })]);
    const provider = testProvider(API, { id: "proxy", builtIn: false, baseUrl: "https://proxy.example/v1" });
    await createCountTokens({ fetch: fake.fetch })(testRequest(API, { provider }));
    expect(fake.requests.map((r) => r.url)).toEqual(["https://proxy.example/v1/messages/count_tokens"]);
  });

  it("a 4xx/5xx or a network error is a failure value, with the key redacted", async () => {
    const fake = createFakeFetch([
      jsonReply(404, { type: "error", error: { type: "not_found_error", message: "Not Found sk-ant-test" } }),
      { status: 200, chunks: ["{"], end: "drop" },
    ]);
    const count = createCountTokens({ fetch: fake.fetch });
    const first = await count(testRequest(API));
    expect(first).toMatchObject({ ok: false, reason: "failed" });
    expect(JSON.stringify(first)).not.toContain("sk-ant-test");
    expect(await count(testRequest(API))).toMatchObject({ ok: false, reason: "failed" });
  });

  it("sends nothing without a key, for other apis, or to an unconfirmed plain-http host", async () => {
    const fake = createFakeFetch([]);
    const count = createCountTokens({ fetch: fake.fetch });
    const noKey = testRequest(API, { provider: testProvider(API, { apiKey: " " }) });
    expect(await count(noKey)).toMatchObject({ ok: false, reason: "no_key" });
    expect(await count(testRequest("openai-responses"))).toMatchObject({ ok: false, reason: "unsupported" });
    const insecure = testProvider(API, { id: "x", builtIn: false, baseUrl: "http://203.0.113.5:8080" });
    expect(await count(testRequest(API, { provider: insecure }))).toMatchObject({ ok: false, reason: "refused" });
    expect(fake.requests).toHaveLength(0);
  });
});
