/**
 * Which compaction a provider gets (Settings → Compaction "Compaction method"): Grove's summary,
 * or the provider's own when the user chose "Provider-native when available" and its wire api has
 * one (OpenAI Responses: `responses.compact`; Anthropic Messages: the explicit compaction request).
 * Chat Completions servers have none, so they always get Grove's summary. Default: Grove summary.
 */
import type { ApiKind, CompactionMethod } from "../session/entries";
import type { CompactionSettings } from "./settings";

/** The native method an api supports, or null. */
export function nativeMethodOfApi(api: ApiKind): Exclude<CompactionMethod, "grove"> | null {
  switch (api) {
    case "openai-responses":
      return "openai";
    case "anthropic-messages":
      return "anthropic";
    case "openai-chat":
      return null;
  }
}

/** The native method to use for this provider, or null for Grove's summary. */
export function nativeMethodFor(
  settings: Pick<CompactionSettings, "methods">,
  provider: { id: string; api: ApiKind },
): Exclude<CompactionMethod, "grove"> | null {
  if (settings.methods?.[provider.id] !== "native") return null;
  return nativeMethodOfApi(provider.api);
}
