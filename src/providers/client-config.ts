/**
 * What every SDK client is built with, whichever SDK: an injectable `fetch` for tests, a placeholder
 * key for servers that need none, and the base URL guard. No SDK here: each SDK's client has its own
 * module (anthropic-client.ts, openai-client.ts), so loading one never loads the other.
 */
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
export function clientApiKey(provider: ProviderConfig): string {
  return provider.apiKey.trim() || "no-key";
}

/**
 * The base URL a client may use. The registry refuses such requests before they get here; this is
 * the last guard, so that no path can build a client that falls back to an SDK's default host.
 */
export function endpointBaseUrl(provider: ProviderConfig): string {
  const endpoint = resolveEndpoint(provider);
  if (!endpoint.ok) throw new Error(endpoint.error.message);
  return endpoint.baseUrl;
}

/**
 * The fetch every provider request goes through: the injected one or the global, always without a
 * Referer — a worker takes its referrer policy from its own script's response, and served without
 * the `_headers` file it sent the app's URL (issue 30.7).
 */
export function clientFetch(deps: ClientDeps): typeof fetch {
  const inner = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return (input, init) => inner(input, { ...init, referrerPolicy: "no-referrer" });
}
