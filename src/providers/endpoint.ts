/**
 * Where a provider's requests (and so its key) go, decided in one place before any client is built.
 * - A built-in provider without a base URL uses its official host.
 * - A custom provider without one sends nothing: falling back to api.openai.com / api.anthropic.com
 *   would hand the custom provider's key to a host the user never chose.
 * - A plain `http://` base URL for a host that is not this machine or the local network sends the
 *   key and the chat unencrypted: it is used only once the user confirmed that origin in Settings.
 */
import { plainHttpOrigin } from "../core/net/plain-http";
import type { MessageError } from "../core/session/entries";
import type { ProviderConfig } from "./types";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** What is wrong with a base URL typed for `provider`, in words for Settings; undefined when it can be used. */
export function baseUrlProblem(
  provider: Pick<ProviderConfig, "builtIn" | "name">,
  baseUrl: string,
): string | undefined {
  const trimmed = baseUrl.trim();
  if (!trimmed) {
    return provider.builtIn ? undefined : `${provider.name} needs a base URL: without one nothing is sent.`;
  }
  const url = parseUrl(trimmed);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    return `“${trimmed}” is not an http(s) address.`;
  }
  return undefined;
}

export type Endpoint = { ok: true; baseUrl: string } | { ok: false; error: MessageError };

/**
 * The base URL requests for `provider` go to, or why none may be sent. Every request path
 * (streams, model lists) asks this first.
 */
export function resolveEndpoint(provider: ProviderConfig): Endpoint {
  const problem = baseUrlProblem(provider, provider.baseUrl);
  if (problem) return { ok: false, error: { kind: "invalid_request", message: `${problem} Check it in Settings.` } };
  const trimmed = provider.baseUrl.trim();
  const baseUrl =
    trimmed || (provider.api === "anthropic-messages" ? ANTHROPIC_DEFAULT_BASE_URL : OPENAI_DEFAULT_BASE_URL);
  const insecure = plainHttpOrigin(baseUrl);
  if (insecure && provider.plainHttpOrigin !== insecure) {
    return {
      ok: false,
      error: {
        kind: "invalid_request",
        message: `${provider.name}'s base URL ${insecure} is plain http:// to a host outside this machine: the key and the chat would travel unencrypted. Confirm it in Settings, or use https://.`,
      },
    };
  }
  return { ok: true, baseUrl };
}

function parseUrl(s: string): URL | undefined {
  try {
    return new URL(s.trim());
  } catch {
    return undefined;
  }
}
