import * as AnthropicErrors from "@anthropic-ai/sdk/core/error";
import * as OpenAIErrors from "openai/core/error";
import { describe, expect, it } from "vitest";
import type { ApiKind, ErrorKind, MessageError } from "../core/session/entries";
import { classifyError, isRetryable, parseRetryAfterMs, StreamEndedError } from "./classify-error";

const A = "anthropic-messages" as const;
const O = "openai-chat" as const;

/** An HTTP error exactly as the Anthropic SDK builds it from a response. */
function anthropicHttp(status: number, type: string, message: string, headers: Record<string, string> = {}) {
  return AnthropicErrors.APIError.generate(
    status,
    { type: "error", error: { type, message }, request_id: "req_011CSHoEeqs5C35K2UUqR7Fy" },
    undefined,
    new Headers(headers),
  );
}

/** A mid-stream `event: error` as the Anthropic SDK throws it (no status, the 200's headers). */
function anthropicSse(type: string, message: string) {
  return new AnthropicErrors.APIError(
    undefined,
    { type: "error", error: { type, message } },
    undefined,
    new Headers(),
    type as AnthropicErrors.APIError["type"],
  );
}

/** An HTTP error exactly as the OpenAI SDK builds it from a JSON body. */
function openaiHttp(status: number, body: unknown, headers: Record<string, string> = {}) {
  return OpenAIErrors.APIError.generate(status, body as object, undefined, new Headers(headers));
}

/** An HTTP error whose body was not JSON (a proxy's HTML page, or empty). */
function openaiText(status: number, text: string | undefined) {
  return OpenAIErrors.APIError.generate(status, undefined, text, new Headers());
}

type Row = { name: string; api: ApiKind; err: unknown; kind: ErrorKind; status?: number };

const rows: Row[] = [
  // ---- context overflow: a real message per provider ----
  {
    name: "Anthropic prompt is too long",
    api: A,
    err: anthropicHttp(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
    kind: "context_overflow",
    status: 400,
  },
  {
    name: "Anthropic input + max_tokens exceed context limit",
    api: A,
    err: anthropicHttp(
      400,
      "invalid_request_error",
      "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again",
    ),
    kind: "context_overflow",
  },
  {
    name: "OpenAI context_length_exceeded",
    api: O,
    err: openaiHttp(400, {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    }),
    kind: "context_overflow",
  },
  {
    name: "OpenAI exceeds the context window",
    api: O,
    err: openaiHttp(400, {
      error: {
        message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
        type: "invalid_request_error",
        code: null,
      },
    }),
    kind: "context_overflow",
  },
  {
    name: "OpenRouter maximum context length",
    api: O,
    err: openaiHttp(400, {
      error: {
        message:
          'This endpoint\'s maximum context length is 131072 tokens. However, you requested about 140213 tokens (140213 of text input). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
        code: 400,
      },
    }),
    kind: "context_overflow",
  },
  {
    name: "llama.cpp exceed_context_size_error (HTTP 500 in older builds)",
    api: O,
    err: openaiHttp(500, {
      error: {
        code: 500,
        message:
          "the request exceeds the available context size. try increasing the context size or enable context shift",
        type: "exceed_context_size_error",
        n_prompt_tokens: 1407,
        n_ctx: 256,
      },
    }),
    kind: "context_overflow",
    status: 500,
  },
  {
    name: "llama.cpp Context size has been exceeded (server_error 500)",
    api: O,
    err: openaiHttp(500, { error: { code: 500, message: "Context size has been exceeded.", type: "server_error" } }),
    kind: "context_overflow",
  },
  {
    name: "Ollama input length exceeds the context length",
    api: O,
    err: openaiHttp(400, { error: "the input length exceeds the context length" }),
    kind: "context_overflow",
  },
  {
    name: "LM Studio keep the first N tokens",
    api: O,
    err: openaiHttp(400, {
      error:
        "Trying to keep the first 14538 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
    }),
    kind: "context_overflow",
  },
  {
    name: "LM Studio mid-generation overflow",
    api: O,
    err: openaiHttp(400, {
      error:
        "Reached context length of 32000 tokens with model (arch: gpt-oss) that does not currently support mid-generation context overflow. Try reloading with a larger context length or shortening the prompt/chat.",
    }),
    kind: "context_overflow",
  },
  {
    name: "Groq reduce the length of the messages",
    api: O,
    err: openaiHttp(400, {
      error: {
        message: "Please reduce the length of the messages or completion.",
        type: "invalid_request_error",
        param: "messages",
      },
    }),
    kind: "context_overflow",
  },
  {
    name: "Mistral too large for model",
    api: O,
    err: openaiHttp(400, {
      error: {
        message:
          "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
      },
    }),
    kind: "context_overflow",
  },
  {
    name: "gateway too many tokens",
    api: O,
    err: openaiHttp(400, { error: { message: "Too many tokens in the request", type: "invalid_request_error" } }),
    kind: "context_overflow",
  },

  // ---- auth ----
  {
    name: "Anthropic 401 authentication_error",
    api: A,
    err: anthropicHttp(401, "authentication_error", "invalid x-api-key"),
    kind: "auth",
    status: 401,
  },
  {
    name: "Anthropic 403 permission_error",
    api: A,
    err: anthropicHttp(403, "permission_error", "Your API key does not have permission to use the specified resource."),
    kind: "auth",
    status: 403,
  },
  {
    name: "OpenAI 401 invalid_api_key",
    api: O,
    err: openaiHttp(401, {
      error: {
        message:
          "Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    }),
    kind: "auth",
  },
  {
    name: "OpenRouter 401 no auth",
    api: O,
    err: openaiHttp(401, { error: { message: "No auth credentials found", code: 401 } }),
    kind: "auth",
  },
  {
    name: "OpenRouter 403 moderation is not an auth problem",
    api: O,
    err: openaiHttp(403, {
      error: { message: "Your chosen model requires moderation and your input was flagged", code: 403 },
    }),
    kind: "invalid_request",
  },

  // ---- rate limits and quota ----
  {
    name: "Anthropic 429 rate_limit_error",
    api: A,
    err: anthropicHttp(
      429,
      "rate_limit_error",
      "This request would exceed the rate limit for your organization of 30,000 input tokens per minute.",
    ),
    kind: "rate_limit",
    status: 429,
  },
  {
    name: "OpenAI 429 rate_limit_exceeded",
    api: O,
    err: openaiHttp(429, {
      error: {
        message:
          "Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.",
        type: "requests",
        code: "rate_limit_exceeded",
      },
    }),
    kind: "rate_limit",
  },
  {
    name: "a gateway's 429 'too many tokens per minute' is a rate limit, not an overflow",
    api: O,
    err: openaiHttp(429, { error: { message: "Too many tokens per minute, slow down.", code: 429 } }),
    kind: "rate_limit",
  },
  {
    name: "OpenAI 429 insufficient_quota",
    api: O,
    err: openaiHttp(429, {
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    }),
    kind: "quota",
  },
  {
    name: "Anthropic credit balance too low (400)",
    api: A,
    err: anthropicHttp(
      400,
      "invalid_request_error",
      "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
    ),
    kind: "quota",
  },
  {
    name: "OpenRouter 402 insufficient credits",
    api: O,
    err: openaiHttp(402, {
      error: { message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits", code: 402 },
    }),
    kind: "quota",
  },

  // ---- overloaded and server ----
  {
    name: "Anthropic 529 overloaded_error",
    api: A,
    err: anthropicHttp(529, "overloaded_error", "Overloaded"),
    kind: "overloaded",
    status: 529,
  },
  {
    name: "Anthropic mid-stream overloaded_error",
    api: A,
    err: anthropicSse("overloaded_error", "Overloaded"),
    kind: "overloaded",
  },
  {
    name: "OpenAI 503 engine overloaded",
    api: O,
    err: openaiHttp(503, {
      error: { message: "The engine is currently overloaded, please try again later", type: "server_error" },
    }),
    kind: "overloaded",
    status: 503,
  },
  {
    name: "Anthropic 500 api_error",
    api: A,
    err: anthropicHttp(500, "api_error", "Internal server error"),
    kind: "server",
    status: 500,
  },
  {
    name: "Anthropic mid-stream api_error",
    api: A,
    err: anthropicSse("api_error", "Internal server error"),
    kind: "server",
  },
  {
    name: "OpenAI 500 server_error",
    api: O,
    err: openaiHttp(500, {
      error: {
        message: "The server had an error while processing your request. Sorry about that!",
        type: "server_error",
      },
    }),
    kind: "server",
  },
  {
    name: "a proxy's 502 HTML page",
    api: O,
    err: openaiText(502, "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"),
    kind: "server",
    status: 502,
  },

  // ---- invalid requests ----
  {
    name: "Anthropic 404 not_found_error",
    api: A,
    err: anthropicHttp(404, "not_found_error", "model: claude-nope"),
    kind: "invalid_request",
    status: 404,
  },
  {
    name: "OpenAI 400 unsupported parameter",
    api: O,
    err: openaiHttp(400, {
      error: {
        message:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: "invalid_request_error",
        param: "max_tokens",
        code: "unsupported_parameter",
      },
    }),
    kind: "invalid_request",
  },
  {
    name: "Anthropic max_tokens above the model limit is not an overflow",
    api: A,
    err: anthropicHttp(
      400,
      "invalid_request_error",
      "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-haiku-4-5",
    ),
    kind: "invalid_request",
  },
  { name: "400 with no body", api: O, err: openaiText(400, undefined), kind: "invalid_request", status: 400 },

  // ---- network ----
  { name: "Chrome: Failed to fetch", api: O, err: new TypeError("Failed to fetch"), kind: "network" },
  { name: "Chrome: network error mid-body", api: A, err: new TypeError("network error"), kind: "network" },
  {
    name: "Firefox: NetworkError",
    api: O,
    err: new TypeError("NetworkError when attempting to fetch resource."),
    kind: "network",
  },
  { name: "Safari: Load failed", api: O, err: new TypeError("Load failed"), kind: "network" },
  {
    name: "undici: fetch failed (ECONNREFUSED cause)",
    api: O,
    err: new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:11434"), { code: "ECONNREFUSED" }),
    }),
    kind: "network",
  },
  {
    name: "undici: terminated (socket closed mid-body)",
    api: A,
    err: new TypeError("terminated", { cause: new Error("other side closed") }),
    kind: "network",
  },
  {
    name: "Anthropic APIConnectionError",
    api: A,
    err: new AnthropicErrors.APIConnectionError({ cause: new TypeError("Failed to fetch") }),
    kind: "network",
  },
  {
    name: "OpenAI APIConnectionError (name is just 'Error')",
    api: O,
    err: new OpenAIErrors.APIConnectionError({ cause: new TypeError("fetch failed") }),
    kind: "network",
  },
  {
    name: "OpenAI APIConnectionTimeoutError",
    api: O,
    err: new OpenAIErrors.APIConnectionTimeoutError(),
    kind: "network",
  },
  { name: "stream ended early", api: O, err: new StreamEndedError(), kind: "network" },

  // ---- aborts ----
  {
    name: "DOMException AbortError",
    api: O,
    err: new DOMException("This operation was aborted", "AbortError"),
    kind: "aborted",
  },
  { name: "Anthropic APIUserAbortError", api: A, err: new AnthropicErrors.APIUserAbortError(), kind: "aborted" },
  { name: "OpenAI APIUserAbortError", api: O, err: new OpenAIErrors.APIUserAbortError(), kind: "aborted" },

  // ---- anything else ----
  { name: "a plain Error", api: O, err: new Error("something odd"), kind: "unknown" },
  { name: "a thrown string", api: O, err: "boom", kind: "unknown" },
  { name: "undefined", api: A, err: undefined, kind: "unknown" },
];

describe("classifyError", () => {
  it.each(rows)("$name -> $kind", ({ api, err, kind, status }) => {
    const e = classifyError(err, api);
    expect(e.kind).toBe(kind);
    if (status !== undefined) expect(e.status).toBe(status);
    expect(e.message.length).toBeGreaterThan(0);
  });

  it("writes a plain sentence and keeps the provider's own words", () => {
    expect(classifyError(anthropicHttp(401, "authentication_error", "invalid x-api-key"), A)).toEqual({
      kind: "auth",
      status: 401,
      message: "The API key was rejected (401). Check it in Settings. Provider said: invalid x-api-key",
    });
    expect(classifyError(anthropicHttp(529, "overloaded_error", "Overloaded"), A).message).toBe(
      "Anthropic is overloaded right now (529). Try again in a moment. Provider said: Overloaded",
    );
    expect(
      classifyError(
        anthropicHttp(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
        A,
      ).message,
    ).toBe(
      "The conversation is too long for this model's context window (400). Compact it, or switch to a model with a larger window. " +
        "Provider said: prompt is too long: 210000 tokens > 200000 maximum",
    );
  });

  it("labels a JS error's text as details, not as the provider speaking", () => {
    expect(classifyError(new TypeError("Failed to fetch"), O).message).toMatch(
      /^Couldn't reach the provider\. .* Details: Failed to fetch$/,
    );
    expect(classifyError(new StreamEndedError(), A).message).toBe("The connection closed before the reply finished.");
  });

  it("truncates a long provider message to one line", () => {
    const html = `<html>\n${"x".repeat(2000)}</html>`;
    const e = classifyError(openaiText(502, html), O);
    expect(e.message).not.toContain("\n");
    expect(e.message.length).toBeLessThan(600);
    expect(e.message.endsWith("…")).toBe(true);
  });

  it("carries retry-after on retryable errors only", () => {
    expect(
      classifyError(anthropicHttp(429, "rate_limit_error", "slow down", { "retry-after": "12" }), A).retryAfterMs,
    ).toBe(12_000);
    expect(
      classifyError(anthropicHttp(529, "overloaded_error", "Overloaded", { "retry-after": "2" }), A),
    ).toMatchObject({ kind: "overloaded", retryAfterMs: 2000 });
    expect(
      classifyError(anthropicHttp(400, "invalid_request_error", "bad", { "retry-after": "5" }), A),
    ).not.toHaveProperty("retryAfterMs");
  });

  it("never throws, whatever it is given", () => {
    const weird: unknown[] = [null, 42, Symbol("s"), { error: { error: { error: 1 } } }, { status: "x", headers: 3 }];
    for (const w of weird) expect(() => classifyError(w, O)).not.toThrow();
  });
});

describe("isRetryable", () => {
  const retryable = (e: MessageError) => isRetryable(e);
  it.each([
    [anthropicHttp(429, "rate_limit_error", "slow down"), A, true],
    [anthropicHttp(529, "overloaded_error", "Overloaded"), A, true],
    [anthropicHttp(500, "api_error", "Internal server error"), A, true],
    [openaiText(502, "Bad gateway"), O, true],
    [
      openaiHttp(429, {
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          code: "insufficient_quota",
        },
      }),
      O,
      false,
    ],
    [
      anthropicHttp(400, "invalid_request_error", "Your credit balance is too low to access the Anthropic API."),
      A,
      false,
    ],
    [anthropicHttp(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"), A, false],
    [
      openaiHttp(500, { error: { code: 500, message: "Context size has been exceeded.", type: "server_error" } }),
      O,
      false,
    ],
    [anthropicHttp(401, "authentication_error", "invalid x-api-key"), A, false],
    [anthropicHttp(400, "invalid_request_error", "messages: field required"), A, false],
    [new TypeError("Failed to fetch"), O, false],
    [new DOMException("aborted", "AbortError"), O, false],
  ] as const)("%#: %s", (err, api, expected) => {
    expect(retryable(classifyError(err, api))).toBe(expected);
  });

  it("an exhausted quota is its own kind, told by the provider's code or words, never by our sentence", () => {
    const quota = classifyError(
      openaiHttp(429, { error: { message: "You exceeded your current quota.", code: "insufficient_quota" } }),
      O,
    );
    expect(quota.kind).toBe("quota");
    expect(quota.message).toMatch(/^Your account has run out of credit or quota \(429\)/);
    expect(classifyError(anthropicHttp(429, "rate_limit_error", "slow down"), A).kind).toBe("rate_limit");
    // A stored error is judged by its kind alone: our own words under another kind change nothing.
    expect(isRetryable({ kind: "rate_limit", message: "Your account has run out of credit or quota (429)." })).toBe(
      true,
    );
    expect(isRetryable({ kind: "quota", message: "" })).toBe(false);
  });
});

describe("parseRetryAfterMs", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it.each([
    ["seconds", new Headers({ "retry-after": "7" }), 7000],
    ["fractional seconds", new Headers({ "retry-after": "1.5" }), 1500],
    ["an HTTP date", new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), 30_000],
    ["a date in the past", new Headers({ "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }), 0],
    ["retry-after-ms wins", new Headers({ "retry-after-ms": "250", "retry-after": "7" }), 250],
    ["a plain header record", { "Retry-After": "3" }, 3000],
    ["an error carrying headers", anthropicHttp(429, "rate_limit_error", "x", { "retry-after": "4" }), 4000],
    [
      "OpenAI's 'try again in' sentence",
      openaiHttp(429, {
        error: { message: "Rate limit reached ... Please try again in 2.5s.", code: "rate_limit_exceeded" },
      }),
      2500,
    ],
    [
      "OpenAI's 'try again in' ms sentence",
      openaiHttp(429, { error: { message: "Please try again in 120ms.", code: "rate_limit_exceeded" } }),
      120,
    ],
    ["nothing", new Headers(), undefined],
    ["garbage", new Headers({ "retry-after": "soon" }), undefined],
    ["not an object", "7", undefined],
  ] as const)("%s", (_name, source, expected) => {
    expect(parseRetryAfterMs(source, now)).toBe(expected);
  });
});
