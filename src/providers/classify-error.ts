/**
 * Every provider failure becomes a `MessageError` here, and only here (DESIGN §7, STYLE §2.2).
 * Adapters hand over whatever they caught (SDK `APIError`s from either SDK, mid-stream SSE error
 * events, fetch `TypeError`s, `AbortError`s); this file reads status, error type/code and the
 * provider's own message, decides the `ErrorKind`, and writes a sentence a user understands,
 * keeping the provider's words after it. Each pattern carries a real provider message.
 *
 * Pure: no I/O. Errors are read by shape, so both SDKs and plain objects work; the SDKs' connection
 * and abort classes are recognised with `instanceof` (OpenAI's errors all have name "Error", and a
 * minified build renames constructors).
 */
import {
  APIConnectionError as AnthropicConnectionError,
  APIUserAbortError as AnthropicUserAbortError,
} from "@anthropic-ai/sdk/core/error";
import {
  APIConnectionError as OpenAIConnectionError,
  APIUserAbortError as OpenAIUserAbortError,
} from "openai/core/error";
import { redactError, redactSecrets } from "../core/net/redact";
import type { ApiKind, ErrorKind, MessageError } from "../core/session/entries";
import { isMessageError } from "../core/session/message-error";
import { browserOffline, OFFLINE_MESSAGE } from "./offline";

/** The provider's own message is kept, but a proxy's HTML error page is not worth 50 kB. */
const MAX_PROVIDER_MESSAGE_CHARS = 400;

// ---- patterns (each with a real message) -----------------------------------------------------

/**
 * The prompt does not fit the model's window. Checked before the 4xx/5xx status rules (only
 * quota and 429 come first): llama.cpp reports overflow as HTTP 500, and an overflow must never be
 * retried generically (DESIGN §4.7).
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  // Anthropic 400 invalid_request_error: "prompt is too long: 210000 tokens > 200000 maximum"
  /prompt is too long/i,
  // Anthropic 400: "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000,
  // decrease input length or `max_tokens` and try again"
  /exceed context limit/i,
  // OpenAI 400 code context_length_exceeded: "This model's maximum context length is 128000 tokens.
  // However, your messages resulted in 130412 tokens. Please reduce the length of the messages."
  // OpenRouter: "This endpoint's maximum context length is 131072 tokens. However, you requested
  // about 140213 tokens (140213 of text input). Please reduce the length of either one, ..."
  // vLLM: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens
  // (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion."
  /maximum context length/i,
  // OpenAI (newer models): "Your input exceeds the context window of this model. Please adjust your input and try again."
  /exceeds? the context window/i,
  // llama.cpp server, type exceed_context_size_error: "the request exceeds the available context size.
  // try increasing the context size or enable context shift"; newer builds: "request (4390 tokens)
  // exceeds the available context size (4096 tokens), try increasing it"
  /exceeds the available context size/i,
  // llama.cpp server (HTTP 500, type server_error): "Context size has been exceeded."
  /context size has been exceeded/i,
  // Ollama: {"error":"the input length exceeds the context length"}
  /exceeds the context length/i,
  // LM Studio: "Trying to keep the first 15857 tokens when context the overflows. However, the model
  // is loaded with context length of only 4096 tokens, which is not enough. Try to load the model
  // with a larger context length, or provide a shorter input"
  /when context (?:the )?overflows/i,
  // LM Studio (older builds): "tokens to keep from the initial prompt is greater than the context length"
  /greater than the context length/i,
  // LM Studio: "Reached context length of 32000 tokens with model (arch: gpt-oss) that does not
  // currently support mid-generation context overflow."
  /reached context length of \d+/i,
  // Groq: "Please reduce the length of the messages or completion."
  /reduce the length of the messages/i,
  // xAI: "This model's maximum prompt length is 131072 but the request contains 537812 tokens."
  /maximum prompt length is \d+/i,
  // Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
  /too large for model with \d+ maximum context length/i,
  // MiniMax: "invalid params, context window exceeds limit"
  /context window exceeds limit/i,
  // OpenAI-compatible proxies (LiteLLM, one-api) pass the code through: "context_length_exceeded"
  /context[_ ]length[_ ]exceeded/i,
  // Generic fallbacks seen behind OpenAI-compatible gateways: "Too many tokens in the request",
  // "token limit exceeded", "Your request exceeded model token limit: 262144 (requested: 270000)"
  /too many tokens/i,
  /token limit exceeded|exceeded model token limit/i,
];

/** Error `type`/`code` values that mean overflow whatever the wording. */
const OVERFLOW_CODES = new Set(["context_length_exceeded", "exceed_context_size_error", "string_above_max_length"]);

/** Out of money, not out of breath: its own kind (`quota`), which `isRetryable` never retries. */
const QUOTA_PATTERNS: readonly RegExp[] = [
  // OpenAI 429 type/code insufficient_quota: "You exceeded your current quota, please check your plan
  // and billing details. For more information on this error, read the docs: ..."
  /exceeded your current quota/i,
  // Anthropic 400 invalid_request_error: "Your credit balance is too low to access the Anthropic API.
  // Please go to Plans & Billing to upgrade or purchase credits."
  /credit balance is too low/i,
  // OpenRouter 402: "Insufficient credits. Add more using https://openrouter.ai/settings/credits"
  /insufficient credits/i,
];
const QUOTA_CODES = new Set(["insufficient_quota", "billing_error", "billing_not_active"]);

const AUTH_CODES = new Set([
  // Anthropic 401: {"type":"authentication_error","message":"invalid x-api-key"}
  "authentication_error",
  // Anthropic 403: {"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}
  "permission_error",
  // OpenAI 401: {"message":"Incorrect API key provided: sk-abc. You can find your API key at ...","code":"invalid_api_key"}
  "invalid_api_key",
  "invalid_authentication",
]);

const RATE_LIMIT_CODES = new Set([
  // Anthropic 429: {"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit ..."}
  "rate_limit_error",
  // OpenAI 429: {"message":"Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2s.","type":"tokens","code":"rate_limit_exceeded"}
  "rate_limit_exceeded",
]);

const OVERLOADED_CODES = new Set([
  // Anthropic 529, or mid-stream `event: error`: {"type":"overloaded_error","message":"Overloaded"}
  "overloaded_error",
]);

const SERVER_CODES = new Set([
  // Anthropic 500 / mid-stream: {"type":"api_error","message":"Internal server error"}
  "api_error",
  // OpenAI 500: {"message":"The server had an error while processing your request. Sorry about that!","type":"server_error"}
  // OpenRouter mid-stream chunk: {"error":{"code":"server_error","message":"Provider disconnected unexpectedly"}}
  "server_error",
]);

/**
 * The connection failed or dropped (no HTTP status to go by). Sample messages:
 * - Chrome `fetch` rejection: "TypeError: Failed to fetch" (also a local server without CORS)
 * - Chrome body read cut off mid-stream: "TypeError: network error"
 * - Firefox: "NetworkError when attempting to fetch resource."
 * - Safari: "TypeError: Load failed"
 * - Node/undici: "TypeError: fetch failed" (cause "ECONNREFUSED"); mid-body: "TypeError: terminated"
 *   (cause "SocketError: other side closed")
 * - both SDKs, fetch rejected: "APIConnectionError: Connection error." / "Request timed out."
 */
const NETWORK_PATTERNS: readonly RegExp[] = [
  /failed to fetch/i,
  /fetch failed/i,
  /network ?error/i,
  /load failed/i,
  /^terminated$/i,
  /other side closed/i,
  /socket hang up/i,
  /connection (?:error|reset|refused|closed)/i,
  /timed? ?out/i,
  /\b(?:ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|UND_ERR_SOCKET)\b/,
];
const NETWORK_ERROR_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError", "StreamEndedError"]);
const ABORT_ERROR_NAMES = new Set(["AbortError", "APIUserAbortError"]);

/** Error class names that survive minification: set explicitly, or recognised by instanceof. */
function errorName(err: object): string | undefined {
  // Both SDKs' timeout errors extend their APIConnectionError.
  if (err instanceof AnthropicConnectionError || err instanceof OpenAIConnectionError) return "APIConnectionError";
  if (err instanceof AnthropicUserAbortError || err instanceof OpenAIUserAbortError) return "APIUserAbortError";
  return "name" in err ? str(err.name) : undefined;
}

// ---- reading an unknown error ------------------------------------------------------------------

type HeaderGetter = { get(name: string): string | null };

/** What classification needs from any error shape. */
type ErrorFacts = {
  name: string;
  status?: number;
  /** Provider error `type` and `code` (lower-cased), e.g. "overloaded_error", "insufficient_quota". */
  codes: string[];
  /** The provider's own message, or the JS error message when there is none. */
  providerMessage: string;
  /** True when a provider error body was present (an HTTP error or an SSE error event). */
  hasBody: boolean;
  /** Messages and codes of the `cause` chain (undici hides "ECONNRESET" there). */
  causeText: string;
};

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null;
}

function str(x: unknown): string | undefined {
  return typeof x === "string" && x.length > 0 ? x : undefined;
}

function isHeaderGetter(x: unknown): x is HeaderGetter {
  return isRecord(x) && typeof x.get === "function";
}

/** Strips the SDKs' "429 " status prefix (the status is reported separately). */
function cleanSdkMessage(message: string, status: number | undefined): string {
  let m = message.trim();
  if (status !== undefined && m.startsWith(`${status} `)) m = m.slice(String(status).length + 1);
  return m;
}

function readFacts(err: unknown): ErrorFacts {
  if (!isRecord(err)) {
    return { name: typeof err, codes: [], providerMessage: String(err ?? ""), hasBody: false, causeText: "" };
  }
  const name = errorName(err) ?? "Object";
  const sdkMessage = str(err.message) ?? "";

  // Anthropic SDK: `error` is the whole body {type:"error", error:{type, message}}.
  // OpenAI SDK: `error` is the inner object {message, type, code, param}, or a bare string (Ollama).
  // Plain SSE payloads handed over by an adapter look like either.
  const body = err.error;
  const inner = isRecord(body) && isRecord(body.error) ? body.error : body;
  const hasBody = inner !== undefined && inner !== null;

  let status = typeof err.status === "number" ? err.status : undefined;
  const codes: string[] = [];
  let innerMessage: string | undefined;
  if (isRecord(inner)) {
    for (const key of ["type", "code"] as const) {
      const v = inner[key];
      if (typeof v === "string") codes.push(v.toLowerCase());
      // OpenRouter / llama.cpp put the HTTP status in `code` (also inside 200 streams).
      if (typeof v === "number" && status === undefined && v >= 400 && v < 600) status = v;
    }
    innerMessage = str(inner.message) ?? (isRecord(inner.message) ? JSON.stringify(inner.message) : undefined);
  } else if (typeof inner === "string") {
    innerMessage = str(inner);
  }
  for (const key of ["type", "code"] as const) {
    const v = err[key];
    if (typeof v === "string" && !codes.includes(v.toLowerCase())) codes.push(v.toLowerCase());
  }

  const causeParts: string[] = [];
  let cause: unknown = err.cause;
  for (let depth = 0; depth < 4 && isRecord(cause); depth++) {
    for (const v of [cause.name, cause.message, cause.code]) if (typeof v === "string") causeParts.push(v);
    cause = cause.cause;
  }

  return {
    name,
    status,
    codes,
    providerMessage: innerMessage ?? cleanSdkMessage(sdkMessage, status),
    hasBody,
    causeText: causeParts.join(" "),
  };
}

// ---- retry-after ---------------------------------------------------------------------------------

/**
 * How long the provider asked us to wait, in ms, or undefined when it did not say.
 * Reads `retry-after-ms` (OpenAI, ms), then `retry-after` (seconds, or an HTTP date), from a
 * `Headers`, a plain header record, or an error carrying `headers` (both SDKs' `APIError`).
 * Falls back to the sentence OpenAI puts in 429 messages ("Please try again in 2.5s" / "in 20ms").
 *
 * @example parseRetryAfterMs(new Headers({ "retry-after": "3" })) // 3000
 */
export function parseRetryAfterMs(source: unknown, now: number = Date.now()): number | undefined {
  const headers = isHeaderGetter(source)
    ? source
    : isRecord(source) && isHeaderGetter(source.headers)
      ? source.headers
      : isRecord(source) && isRecord(source.headers)
        ? recordHeaders(source.headers)
        : isRecord(source) && !("message" in source)
          ? recordHeaders(source)
          : undefined;

  const ms = headers?.get("retry-after-ms");
  if (ms) {
    const n = Number.parseFloat(ms);
    if (Number.isFinite(n) && n >= 0) return Math.round(n);
  }
  const ra = headers?.get("retry-after")?.trim();
  if (ra) {
    if (/^\d+(?:\.\d+)?$/.test(ra)) return Math.round(Number.parseFloat(ra) * 1000);
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (isRecord(source)) {
    const text = readFacts(source).providerMessage;
    const m = /try again in (\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(text);
    if (m?.[1] && m[2]) {
      const n = Number.parseFloat(m[1]);
      return Math.round(m[2].toLowerCase() === "ms" ? n : n * 1000);
    }
  }
  return undefined;
}

function recordHeaders(rec: Record<string, unknown>): HeaderGetter {
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(rec)) if (typeof v === "string") lower.set(k.toLowerCase(), v);
  return { get: (name) => lower.get(name.toLowerCase()) ?? null };
}

// ---- classification --------------------------------------------------------------------------

function kindOf(f: ErrorFacts): ErrorKind {
  const has = (set: ReadonlySet<string>) => f.codes.some((c) => set.has(c));
  const text = f.providerMessage;

  if (ABORT_ERROR_NAMES.has(f.name)) return "aborted";
  if (f.status === undefined && !f.hasBody) {
    if (NETWORK_ERROR_NAMES.has(f.name)) return "network";
    const all = `${text} ${f.causeText}`;
    if (NETWORK_PATTERNS.some((p) => p.test(text) || p.test(f.causeText) || p.test(all))) return "network";
  }
  if (has(QUOTA_CODES) || f.status === 402 || QUOTA_PATTERNS.some((p) => p.test(text))) return "quota";
  // Before the overflow patterns: a gateway's "429 Too many tokens per minute" is a rate limit.
  if (has(RATE_LIMIT_CODES) || f.status === 429) return "rate_limit";
  if (has(OVERFLOW_CODES) || OVERFLOW_PATTERNS.some((p) => p.test(text))) return "context_overflow";
  if (has(OVERLOADED_CODES) || f.status === 529) return "overloaded";
  // OpenAI 503: "The engine is currently overloaded, please try again later"
  if ((f.status === 503 || f.status === undefined) && /overloaded/i.test(text)) return "overloaded";
  // OpenRouter 403: "Your chosen model requires moderation and your input was flagged" — not the key's fault.
  if (f.status === 403 && /flagged|moderation/i.test(text)) return "invalid_request";
  if (has(AUTH_CODES) || f.status === 401 || f.status === 403) return "auth";
  if (has(SERVER_CODES) || (f.status !== undefined && f.status >= 500)) return "server";
  if (f.status !== undefined && f.status >= 400) return "invalid_request";
  if (f.codes.includes("invalid_request_error")) return "invalid_request";
  return "unknown";
}

function withStatus(sentence: string, status: number | undefined): string {
  return status === undefined ? sentence : `${sentence} (${status})`;
}

function plainSentence(kind: ErrorKind, f: ErrorFacts, api: ApiKind): string {
  // Anthropic is one known service; an OpenAI-compatible base URL can be anything.
  const who = api === "anthropic-messages" ? "Anthropic" : "The provider";
  const whoMid = api === "anthropic-messages" ? "Anthropic" : "the provider";
  switch (kind) {
    case "aborted":
      return "Stopped.";
    case "context_overflow":
      return `${withStatus("The conversation is too long for this model's context window", f.status)}. Compact it, or switch to a model with a larger window.`;
    case "quota":
      return `${withStatus("Your account has run out of credit or quota", f.status)}. Check your plan and billing with the provider.`;
    case "rate_limit":
      return `${withStatus(`Too many requests: ${whoMid} is rate-limiting this key`, f.status)}. Wait a moment and try again.`;
    case "overloaded":
      return `${withStatus(`${who} is overloaded right now`, f.status)}. Try again in a moment.`;
    case "auth":
      return f.status === 403
        ? "This API key is not allowed to do that (403). Check the key and its permissions in Settings."
        : `${withStatus("The API key was rejected", f.status ?? 401)}. Check it in Settings.`;
    case "server":
      return `${withStatus(`${who} had a server error`, f.status)}. Try again in a moment.`;
    case "network":
      if (browserOffline()) return OFFLINE_MESSAGE;
      if (f.name === "StreamEndedError") return "The connection closed before the reply finished.";
      if (/timed? ?out/i.test(f.providerMessage)) return "The request timed out. Check your connection and try again.";
      if (
        f.providerMessage === "terminated" ||
        /network error|other side closed/i.test(`${f.providerMessage} ${f.causeText}`)
      )
        return "The connection dropped. Check your connection and try again.";
      return "Couldn't reach the provider. Check your connection and the base URL (a local server must also allow requests from this page: CORS).";
    case "invalid_request":
      if (f.status === 404) {
        return "The provider doesn't know this model or address (404). Check the model id and the base URL.";
      }
      return `${withStatus("The provider rejected the request", f.status)}.`;
    case "output_length":
      return "The reply hit the output length limit.";
    case "unknown":
      return "Something went wrong talking to the provider.";
  }
}

/**
 * Classifies anything an adapter caught. Never throws. `secrets` (the provider's key) and anything
 * shaped like a key are redacted from the provider's words (redact.ts).
 *
 * @example classifyError(new Anthropic.RateLimitError(429, body, undefined, headers), "anthropic-messages")
 *   // { kind: "rate_limit", status: 429, retryAfterMs: 3000, message: "Too many requests: ... Provider said: ..." }
 */
export function classifyError(err: unknown, api: ApiKind, secrets: readonly string[] = []): MessageError {
  const facts = readFacts(err);
  const kind = kindOf(facts);
  const sentence = plainSentence(kind, facts, api);
  // The provider's own words stay (they name the model, the limit, the org); a JS error's text is
  // labelled as details, since it is not the provider talking.
  // Some servers quote the key they were sent: redacted before the words are kept anywhere.
  const said = facts.name === "StreamEndedError" ? "" : redactSecrets(facts.providerMessage.trim(), secrets);
  const label = facts.hasBody || facts.status !== undefined ? "Provider said:" : "Details:";
  const showSaid = said.length > 0 && kind !== "aborted" && !sentence.includes(said);
  const message = showSaid ? `${sentence} ${label} ${truncate(said)}` : sentence;

  const error: MessageError = { kind, message };
  if (facts.status !== undefined) error.status = facts.status;
  if (kind === "rate_limit" || kind === "overloaded" || kind === "server") {
    const retryAfterMs = parseRetryAfterMs(err);
    if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
  }
  return error;
}

function truncate(s: string): string {
  const oneLine = s.replace(/\s+/g, " ");
  return oneLine.length > MAX_PROVIDER_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_PROVIDER_MESSAGE_CHARS)}…` : oneLine;
}

/**
 * Whether waiting and trying again can help: rate limits, overloaded and 5xx server errors. Never
 * an exhausted quota, context overflow, auth, invalid requests, network failures or aborts.
 */
export function isRetryable(error: MessageError): boolean {
  switch (error.kind) {
    case "rate_limit":
    case "overloaded":
    case "server":
      return true;
    case "quota":
    case "context_overflow":
    case "output_length":
    case "auth":
    case "network":
    case "invalid_request":
    case "aborted":
    case "unknown":
      return false;
  }
}

/**
 * Any thrown value as a MessageError: one already in that shape stays (its message redacted), any
 * other is classified. The one step from "something was thrown" to the one error shape.
 */
export function asMessageError(e: unknown, api: ApiKind, secrets: readonly string[] = []): MessageError {
  return isMessageError(e) ? redactError(e, secrets) : classifyError(e, api, secrets);
}

/** The error for a stream stopped through its AbortSignal. */
export function abortedError(): MessageError {
  return { kind: "aborted", message: "Stopped." };
}

/** Thrown (and caught) inside adapters when a body ends cleanly but without the provider's final event. */
export class StreamEndedError extends Error {
  constructor(message = "The stream ended before the provider said it was done.") {
    super(message);
    this.name = "StreamEndedError";
  }
}

/**
 * Thrown (and caught) inside adapters when a 200 stream reports a failure in-band (an error chunk or
 * event); `error` is the provider's payload, which the classifier reads like an HTTP error body.
 */
export class StreamErrorPayload extends Error {
  readonly error: unknown;
  constructor(payload: unknown) {
    super("The provider reported an error mid-stream.");
    this.name = "StreamErrorPayload";
    this.error = payload;
  }
}
