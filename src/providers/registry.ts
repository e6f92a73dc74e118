/**
 * The one door to providers (STYLE §2.3): an api kind maps to its adapter and model lister.
 * Callers use `stream` (retries included) or `listModels` and never import an adapter.
 */
import type { ApiKind } from "../core/session/entries";
import { streamAnthropic } from "./anthropic";
import { listAnthropicModels, listOpenAIModels } from "./list-models";
import { streamOpenAI } from "./openai";
import type { ListModelsFn, StreamFn } from "./types";
import { withRetry } from "./with-retry";

type ApiProvider = { stream: StreamFn; listModels: ListModelsFn };

const REGISTRY: Readonly<Record<ApiKind, ApiProvider>> = {
  "anthropic-messages": { stream: streamAnthropic, listModels: listAnthropicModels },
  "openai-chat": { stream: streamOpenAI, listModels: listOpenAIModels },
};

/** The raw adapter for an api (no retries). */
export function streamFor(api: ApiKind): StreamFn {
  return REGISTRY[api].stream;
}

export function listModelsFor(api: ApiKind): ListModelsFn {
  return REGISTRY[api].listModels;
}

/** Streams a reply from `req.provider`, retrying rate limits, overloads and 5xx before any content. */
export const stream: StreamFn = withRetry((req) => streamFor(req.provider.api)(req));

/** The provider's model ids, sorted; rejects with a MessageError. */
export const listModels: ListModelsFn = (provider, signal) => listModelsFor(provider.api)(provider, signal);
