/**
 * The provider's own list of model ids (`GET /v1/models` on both apis), sorted.
 * Not a stream: it rejects on failure, with a `MessageError` from classifyError (so the settings
 * screen can say "The API key was rejected (401)" the same way the chat does).
 */
import type { ApiKind } from "../core/session/entries";
import { classifyError } from "./classify-error";
import type { ClientDeps } from "./client-config";
import type { ListModelsFn } from "./types";

/** More than any provider lists today; a guard against a server that pages forever. */
const MAX_MODELS = 5_000;
/** Anthropic's page size limit. */
const ANTHROPIC_PAGE_SIZE = 1_000;

export function createListModels(api: ApiKind, deps: ClientDeps = {}): ListModelsFn {
  switch (api) {
    case "anthropic-messages":
      return (provider, signal) =>
        collect(api, signal, async () => {
          const { makeAnthropicClient } = await import("./anthropic-client");
          return makeAnthropicClient(provider, deps).models.list({ limit: ANTHROPIC_PAGE_SIZE }, { signal });
        });
    case "openai-responses":
    case "openai-chat":
      return (provider, signal) =>
        collect(api, signal, async () => {
          const { makeOpenAIClient } = await import("./openai-client");
          return makeOpenAIClient(provider, deps).models.list({ signal });
        });
  }
}

export const listAnthropicModels: ListModelsFn = createListModels("anthropic-messages");
export const listOpenAIModels: ListModelsFn = createListModels("openai-chat");

async function collect(
  api: ApiKind,
  signal: AbortSignal,
  // Async: each api's SDK client is loaded on first use, so listing Claude's models never loads OpenAI's SDK.
  list: () => Promise<AsyncIterable<{ id: string }>>,
): Promise<string[]> {
  try {
    const ids = new Set<string>();
    for await (const model of await list()) {
      if (typeof model.id === "string" && model.id) ids.add(model.id);
      if (ids.size >= MAX_MODELS || signal.aborted) break;
    }
    if (signal.aborted) throw Object.assign(new Error("Stopped."), { name: "AbortError" });
    return [...ids].sort((a, b) => a.localeCompare(b));
  } catch (err) {
    throw classifyError(err, api);
  }
}
