/**
 * The OpenAI SDK client (Chat Completions and Responses, and every OpenAI-compatible server):
 * browser mode, no SDK retries (withRetry owns retrying), and error bodies the SDK can read.
 * Imported only by OpenAI paths (statically by the OpenAI adapters, lazily by the modules that serve
 * every api), so a Claude-only user never loads this SDK.
 */
import OpenAI from "openai";
import { type ClientDeps, clientApiKey, clientFetch, endpointBaseUrl } from "./client-config";
import type { ProviderConfig } from "./types";

export function makeOpenAIClient(provider: ProviderConfig, deps: ClientDeps = {}): OpenAI {
  const baseFetch = clientFetch(deps, provider);
  return new OpenAI({
    apiKey: clientApiKey(provider),
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
