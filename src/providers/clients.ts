/**
 * SDK client construction, in one place: browser mode, no SDK retries (withRetry owns retrying,
 * so a 429 is waited out once, visibly, instead of silently inside the SDK), the base URL quirks
 * of each api, and an injectable `fetch` for tests.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { resolveEndpoint } from "./endpoint";
import type { ProviderConfig } from "./types";

export type ClientDeps = {
  /** Replaces the global fetch (tests hand-write SSE bodies through it). */
  fetch?: typeof fetch;
};

/**
 * Local and compatible servers often run without auth; the SDKs refuse to build a client without
 * a key, and an empty bearer header is worse than a placeholder the server ignores.
 */
const PLACEHOLDER_API_KEY = "no-key";

/**
 * Anthropic's SDK appends `/v1` itself, so a base URL pasted with `/v1` would become `/v1/v1/...`
 * and 404. Trailing slashes and one trailing `/v1` are removed.
 */
export function anthropicBaseUrl(baseUrl: string): string | undefined {
  const trimmed = baseUrl.trim().replace(/\/+$/, "").replace(/\/v1$/, "");
  return trimmed.length > 0 ? trimmed : undefined;
}

/**
 * The base URL a client may use. The registry refuses such requests before they get here; this is
 * the last guard, so that no path can build a client that falls back to an SDK's default host.
 */
function endpointBaseUrl(provider: ProviderConfig): string {
  const endpoint = resolveEndpoint(provider);
  if (!endpoint.ok) throw new Error(endpoint.error.message);
  return endpoint.baseUrl;
}

/**
 * Every provider request goes without a Referer: a worker takes its referrer policy from its own
 * script's response, and served without the `_headers` file it sent the app's URL (issue 30.7).
 */
function withoutReferrer(inner: typeof fetch): typeof fetch {
  return (input, init) => inner(input, { ...init, referrerPolicy: "no-referrer" });
}

export function makeAnthropicClient(provider: ProviderConfig, deps: ClientDeps = {}): Anthropic {
  return new Anthropic({
    apiKey: provider.apiKey.trim() || PLACEHOLDER_API_KEY,
    baseURL: anthropicBaseUrl(endpointBaseUrl(provider)) ?? null,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    fetch: withoutReferrer(deps.fetch ?? ((input, init) => globalThis.fetch(input, init))),
  });
}

export function makeOpenAIClient(provider: ProviderConfig, deps: ClientDeps = {}): OpenAI {
  const baseFetch = withoutReferrer(deps.fetch ?? ((input, init) => globalThis.fetch(input, init)));
  return new OpenAI({
    apiKey: provider.apiKey.trim() || PLACEHOLDER_API_KEY,
    baseURL: endpointBaseUrl(provider).replace(/\/+$/, ""),
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    fetch: wrapErrorBodies(baseFetch),
  });
}

/**
 * The OpenAI SDK keeps only `body.error` of a failed response. vLLM (and servers built on its
 * protocol) answer `{"object":"error","message":"This model's maximum context length is 4096 tokens...",
 * "type":"BadRequestError","code":400}` without that wrapper, so the SDK would report
 * "400 status code (no body)" and an overflow would look like a plain bad request. Such bodies are
 * wrapped as `{"error": body}` before the SDK reads them; everything else passes through untouched.
 */
function wrapErrorBodies(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.ok) return res;
    const text = await res.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return res;
    }
    if (typeof body !== "object" || body === null || "error" in body || !("message" in body)) return res;
    return new Response(JSON.stringify({ error: body }), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
