/**
 * The model pickers' choices (the chat header's picker, the command palette, Settings' summary and
 * larger-model pickers): a model as one option value, the ids offered per provider (the registry,
 * the user's own, what the provider's /models lists), and those lists as they arrive.
 */
import { useEffect, useState } from "react";
import type { ModelRef } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { MODEL_REGISTRY } from "../../core/tokens/models";
import type { ProviderConfig } from "../../providers/types";
import { chooseModel } from "../sessions/sessions";
import { fetchProviderModels, updateProvider } from "../settings/settings-actions";

/** A model as one option value: "provider::model id". */
export const encode = (ref: ModelRef) => `${ref.providerId}::${ref.modelId}`;
/** The model an option value names; null for anything else. */
export function decode(value: string): ModelRef | null {
  const at = value.indexOf("::");
  return at < 0 ? null : { providerId: value.slice(0, at), modelId: value.slice(at + 2) };
}

/** Registry models for the built-in providers, the user's own ids, and what the provider's /models lists. */
export function modelIdsFor(provider: ProviderConfig, listed: string[]): string[] {
  const registry =
    provider.id === "anthropic"
      ? MODEL_REGISTRY.filter((m) => m.vendor === "anthropic").map((m) => m.id)
      : provider.id === "openai"
        ? MODEL_REGISTRY.filter((m) => m.vendor === "openai").map((m) => m.id)
        : [];
  return [...new Set([...registry, ...provider.customModels, ...listed])];
}

/** What each provider's /models lists (fetched once per key and base URL), by provider id; missing until it answers. */
export function useListedModels(providers: ProviderConfig[]): Record<string, string[]> {
  const [listed, setListed] = useState<Record<string, string[]>>({});
  const key = providers.map((p) => `${p.id}|${p.baseUrl}|${p.apiKey ? 1 : 0}`).join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` captures what matters in providers
  useEffect(() => {
    let live = true;
    for (const p of providers) {
      if (p.builtIn && !p.apiKey) continue;
      void fetchProviderModels(p).then((ids) => live && setListed((l) => ({ ...l, [p.id]: ids })));
    }
    return () => {
      live = false;
    };
  }, [key]);
  return listed;
}

/** "Other model id…": the id joins the provider's own list (once) and becomes the chat's model. */
export function chooseOtherModel(sessionId: SessionId | null, provider: ProviderConfig, modelId: string): void {
  if (!provider.customModels.includes(modelId))
    void updateProvider(provider.id, { customModels: [...provider.customModels, modelId] });
  void chooseModel(sessionId, { providerId: provider.id, modelId });
}
