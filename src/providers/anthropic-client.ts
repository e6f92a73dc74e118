/**
 * The Anthropic SDK client: browser mode, no SDK retries (withRetry owns retrying, so a 429 is
 * waited out once, visibly, instead of silently inside the SDK), and Anthropic's base URL quirk.
 * Imported only by Anthropic paths (statically by the Anthropic adapter, lazily by the modules that
 * serve every api), so a Claude-only user never loads the OpenAI SDK.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type ClientDeps, clientApiKey, clientFetch, endpointBaseUrl } from "./client-config";
import type { ProviderConfig } from "./types";

/**
 * Anthropic's SDK appends `/v1` itself, so a base URL pasted with `/v1` would become `/v1/v1/...`
 * and 404. Trailing slashes and one trailing `/v1` are removed.
 */
function anthropicBaseUrl(baseUrl: string): string | undefined {
  const trimmed = baseUrl.trim().replace(/\/+$/, "").replace(/\/v1$/, "");
  return trimmed.length > 0 ? trimmed : undefined;
}

export function makeAnthropicClient(provider: ProviderConfig, deps: ClientDeps = {}): Anthropic {
  return new Anthropic({
    apiKey: clientApiKey(provider),
    baseURL: anthropicBaseUrl(endpointBaseUrl(provider)) ?? null,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    fetch: clientFetch(deps, provider),
  });
}
