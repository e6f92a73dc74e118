/**
 * The wire protocols a provider can speak, as the user picks them when adding one ("API type").
 * The labels are the UI contract (issue 10): exactly these three, in this order.
 */
import type { ApiKind } from "../../core/session/entries";

export const API_TYPE_OPTIONS: ReadonlyArray<{ value: ApiKind; label: string }> = [
  { value: "anthropic-messages", label: "Anthropic" },
  { value: "openai-responses", label: "OpenAI Responses" },
  { value: "openai-chat", label: "OpenAI-compatible (Chat Completions)" },
];

/** OpenRouter, Ollama, LM Studio and most gateways speak Chat Completions: the default for a new provider. */
export const DEFAULT_CUSTOM_API: ApiKind = "openai-chat";

export function apiTypeLabel(api: ApiKind): string {
  return API_TYPE_OPTIONS.find((o) => o.value === api)?.label ?? api;
}
