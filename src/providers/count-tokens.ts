/**
 * Exact input-token counts from Anthropic's counting endpoint (`POST /v1/messages/count_tokens`,
 * `client.messages.countTokens`), for the request a send would make: the params come from the
 * stream adapter's own `buildParams`, minus what the endpoint does not take (`max_tokens`,
 * `stream`), so the count is of exactly what would be sent.
 *
 * Never throws: every reason there is no count (another api, no key, a refused endpoint, a network
 * error, a 4xx/5xx) is a value, and the caller falls back to the estimate. The request goes only to
 * the host `resolveEndpoint` allows for this provider (the same client construction as the stream),
 * and no message leaves with the key in it.
 */
import type { MessageCountTokensParams } from "@anthropic-ai/sdk/resources/messages";
import { makeAnthropicClient } from "./anthropic-client";
import { classifyError } from "./classify-error";
import type { ClientDeps } from "./client-config";
import { resolveEndpoint } from "./endpoint";
import type { StreamRequest } from "./types";

/** What a count needs: a stream request without its signal (the count has its own). */
export type CountTokensRequest = Omit<StreamRequest, "signal">;

export type CountTokensResult =
  | { ok: true; inputTokens: number }
  /**
   * `unsupported`: not an Anthropic-API provider; `no_key`: nothing to authenticate with;
   * `refused`: `resolveEndpoint` refuses the host; `failed`: the request failed (network, 4xx, 5xx).
   */
  | { ok: false; reason: "unsupported" | "no_key" | "refused" | "failed"; message: string };

export type CountTokensFn = (req: CountTokensRequest, signal?: AbortSignal) => Promise<CountTokensResult>;

/**
 * The count endpoint's params for the request `req` would stream. The stream adapter is imported
 * on demand: the registry loads it lazily too, and a static import here kept it from splitting.
 */
export async function countTokensParams(req: CountTokensRequest): Promise<MessageCountTokensParams> {
  const { buildParams } = await import("./anthropic");
  const { max_tokens: _max, stream: _stream, ...rest } = buildParams({ ...req, signal: new AbortController().signal });
  const params: MessageCountTokensParams = { model: rest.model, messages: rest.messages };
  if (rest.system !== undefined) params.system = rest.system;
  if (rest.thinking !== undefined) params.thinking = rest.thinking;
  if (rest.output_config !== undefined) params.output_config = rest.output_config;
  return params;
}

/** The counter with injectable dependencies (tests pass a fake `fetch`). */
export function createCountTokens(deps: ClientDeps = {}): CountTokensFn {
  return async (req, signal) => {
    const { provider } = req;
    if (provider.api !== "anthropic-messages") {
      return { ok: false, reason: "unsupported", message: `${provider.name} has no token-counting endpoint.` };
    }
    if (!provider.apiKey.trim()) {
      return { ok: false, reason: "no_key", message: `${provider.name} has no API key.` };
    }
    const endpoint = resolveEndpoint(provider);
    if (!endpoint.ok) return { ok: false, reason: "refused", message: endpoint.error.message };
    try {
      const client = makeAnthropicClient(provider, deps);
      const counted = await client.messages.countTokens(await countTokensParams(req), signal ? { signal } : undefined);
      const n = counted.input_tokens;
      if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
        return { ok: false, reason: "failed", message: "The token count in the reply is not a number." };
      }
      return { ok: true, inputTokens: n };
    } catch (e) {
      return { ok: false, reason: "failed", message: classifyError(e, provider.api, [provider.apiKey]).message };
    }
  };
}

export const countTokens: CountTokensFn = createCountTokens();
