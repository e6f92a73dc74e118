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
 * the `_headers` file it sent the app's URL (issue 30.7). It reaches only the provider's own host
 * (issue 24.14: the CSP cannot name the configured hosts, and a worker obeys only the header
 * policy): a request anywhere else is refused before it leaves, and a redirect is an error, never
 * followed to another host with the key's headers.
 */
export function clientFetch(deps: ClientDeps, provider: ProviderConfig): typeof fetch {
  const inner = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const allowed = new URL(endpointBaseUrl(provider)).origin;
  return (input, init) => {
    const target = requestUrl(input);
    if (target?.origin !== allowed) {
      const where = target ? target.host : "an unreadable address";
      return Promise.reject(
        new TypeError(`Grove refused a request to ${where}: it is not the host configured for ${provider.name}.`),
      );
    }
    return inner(input, { ...init, referrerPolicy: "no-referrer", redirect: "error" });
  };
}

function requestUrl(input: string | URL | Request): URL | undefined {
  try {
    return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  } catch {
    return undefined;
  }
}
