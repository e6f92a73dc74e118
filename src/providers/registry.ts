/**
 * The one door to providers (STYLE §2.3): an api kind maps to its adapter and model lister.
 * Callers use `stream` (retries included), `listModels` or `countTokens` and never import an adapter.
 *
 * Adapters are loaded on first use (dynamic import): the two SDKs are a large share of the
 * bundle, and the app can paint a stored conversation without either.
 */

import { redactError } from "../core/net/redact";
import type { ApiKind } from "../core/session/entries";
import { asMessageError, classifyError } from "./classify-error";
import type { CountTokensFn } from "./count-tokens";
import { resolveEndpoint } from "./endpoint";
import type { AssistantPartial, ListModelsFn, StreamFn, StreamRequest } from "./types";
import { withRetry } from "./with-retry";

type ApiProvider = { stream: StreamFn; listModels: ListModelsFn };

const LOADERS: Readonly<Record<ApiKind, () => Promise<ApiProvider>>> = {
  "anthropic-messages": async () => {
    const [{ streamAnthropic }, { listAnthropicModels }] = await Promise.all([
      import("./anthropic"),
      import("./list-models"),
    ]);
    return { stream: streamAnthropic, listModels: listAnthropicModels };
  },
  "openai-responses": async () => {
    const [{ streamOpenAIResponses }, { listOpenAIModels }] = await Promise.all([
      import("./openai-responses"),
      import("./list-models"),
    ]);
    return { stream: streamOpenAIResponses, listModels: listOpenAIModels };
  },
  "openai-chat": async () => {
    const [{ streamOpenAI }, { listOpenAIModels }] = await Promise.all([import("./openai"), import("./list-models")]);
    return { stream: streamOpenAI, listModels: listOpenAIModels };
  },
};

const loaded = new Map<ApiKind, Promise<ApiProvider>>();
export function loadProvider(api: ApiKind): Promise<ApiProvider> {
  let p = loaded.get(api);
  if (!p) {
    p = LOADERS[api]();
    // A failed chunk load (offline right after an update) may succeed on the next try.
    p.catch(() => loaded.delete(api));
    loaded.set(api, p);
  }
  return p;
}

/**
 * The adapter for an api (no retries). Keeps the stream contract even when loading the adapter
 * fails: the failure arrives as an `error` event, never a throw.
 */
export function streamFor(api: ApiKind): StreamFn {
  return async function* lazyStream(req: StreamRequest) {
    let provider: ApiProvider;
    try {
      provider = await loadProvider(api);
    } catch (e) {
      const partial: AssistantPartial = {
        content: [],
        providerId: req.provider.id,
        api,
        model: req.model,
        stopReason: "error",
      };
      yield { type: "error", partial, error: classifyError(e, api) };
      return;
    }
    yield* provider.stream(req);
  };
}

const retrying: StreamFn = withRetry((req) => streamFor(req.provider.api)(req));

/**
 * Streams a reply from `req.provider`, retrying rate limits, overloads and 5xx before any content.
 * Nothing is sent to an endpoint `resolveEndpoint` refuses, and no error leaves with the key in it
 * (nor an MCP connector token of the request's tools). The chat's, the summarizer's and the tool
 * loop's door alike.
 */
export const stream: StreamFn = async function* (req) {
  const endpoint = resolveEndpoint(req.provider);
  if (!endpoint.ok) {
    const partial: AssistantPartial = {
      content: [],
      providerId: req.provider.id,
      api: req.provider.api,
      model: req.model,
      stopReason: "error",
    };
    yield { type: "start", partial };
    yield { type: "error", partial, error: endpoint.error };
    return;
  }
  const secrets = [req.provider.apiKey, ...toolSecrets(req.tools)];
  for await (const event of retrying(req)) {
    if (event.type === "error" || event.type === "retry_wait")
      yield { ...event, error: redactError(event.error, secrets) };
    else yield event;
  }
};

function toolSecrets(tools: StreamRequest["tools"]): string[] {
  return (tools ?? []).flatMap((t) => (t.kind === "mcp" && t.authorizationToken ? [t.authorizationToken] : []));
}

/** The provider's model ids, sorted; rejects with a (redacted) MessageError. */
export const listModels: ListModelsFn = async (provider, signal) => {
  const endpoint = resolveEndpoint(provider);
  if (!endpoint.ok) throw endpoint.error;
  try {
    return await (await loadProvider(provider.api)).listModels(provider, signal);
  } catch (e) {
    throw asMessageError(e, provider.api, [provider.apiKey]);
  }
};

/**
 * Anthropic's exact count of the request `req` would stream (count-tokens.ts), loaded on first use;
 * never throws (no count is a value: the caller keeps its estimate).
 */
export const countTokens: CountTokensFn = async (req, signal) => {
  const { countTokens } = await import("./count-tokens");
  return countTokens(req, signal);
};
