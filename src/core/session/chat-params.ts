/**
 * Per-chat model parameters (issue 12 item 8) and the saved presets for them and for system
 * prompts. Pure data and the one rule that merges a chat's choices over the model's defaults.
 */
import type { PresetTools } from "./chat-tools";

export type AnthropicEffort = "low" | "medium" | "high" | "xhigh" | "max";
export type OpenAIEffort = "minimal" | "low" | "medium" | "high";

export type ThinkingSetting =
  | { kind: "off" }
  | { kind: "anthropic-budget"; budgetTokens: number }
  /** Claude 4.6+: the model decides how much to think; Opus 4.7+ accept only this form. */
  | { kind: "anthropic-adaptive"; effort: AnthropicEffort }
  | { kind: "openai-effort"; effort: OpenAIEffort };

/** What a chat sets for itself; an absent field follows the model's default (Settings › Models). */
export type ChatParams = {
  /** 0–2 (Anthropic accepts 0–1; it is clamped there). Absent: the provider's default. */
  temperature?: number;
  /** Most tokens one reply may generate; capped by the model's limit. */
  maxOutputTokens?: number;
  thinking?: ThinkingSetting;
};

export type PromptPreset = { name: string; text: string };
/** A model preset: parameters, and the tools a chat applying it may use (issue 28 item 4), if it chose any. */
export type ParamsPreset = { name: string; params: ChatParams; tools?: PresetTools };

const TEMPERATURE_MAX = 2;

export type RequestParams = { temperature?: number; maxOutputTokens: number; thinking: ThinkingSetting };

/** The request's parameters: the chat's choices over the defaults, within the model's limit. */
export function effectiveParams(
  params: ChatParams | undefined,
  defaults: { maxOutputTokens: number; thinking: ThinkingSetting },
): RequestParams {
  const out: RequestParams = {
    maxOutputTokens:
      params?.maxOutputTokens !== undefined && params.maxOutputTokens > 0
        ? Math.min(Math.floor(params.maxOutputTokens), defaults.maxOutputTokens)
        : defaults.maxOutputTokens,
    thinking: params?.thinking ?? defaults.thinking,
  };
  if (params?.temperature !== undefined && Number.isFinite(params.temperature))
    out.temperature = Math.min(TEMPERATURE_MAX, Math.max(0, params.temperature));
  return out;
}

/** Reads stored params (any shape from any app version) into ChatParams, dropping what is not valid. */
export function chatParamsFrom(value: unknown): ChatParams | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const out: ChatParams = {};
  if (typeof v.temperature === "number" && Number.isFinite(v.temperature)) out.temperature = v.temperature;
  if (typeof v.maxOutputTokens === "number" && Number.isInteger(v.maxOutputTokens) && v.maxOutputTokens > 0)
    out.maxOutputTokens = v.maxOutputTokens;
  if (
    typeof v.thinking === "object" &&
    v.thinking !== null &&
    typeof (v.thinking as { kind?: unknown }).kind === "string"
  )
    out.thinking = v.thinking as ThinkingSetting;
  return Object.keys(out).length > 0 ? out : undefined;
}
