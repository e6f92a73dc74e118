/**
 * The temperature a request may carry, per api (one rule for the adapters and the Model settings
 * dialog). Providers reject it in some cases instead of ignoring it, so it is left out there:
 * - Anthropic: never. The Messages API deprecated `temperature` (the SDK's request type, 1.11.0,
 *   no longer has the field, and its changelog mentions the deprecation message).
 * - OpenAI reasoning models (o-series, GPT-5 and later: the registry's `openai-effort` models):
 *   "Unsupported parameter: 'temperature' is not supported with this model".
 */
import type { ApiKind } from "../core/session/entries";
import { findModel } from "../core/tokens/models";
import type { StreamRequest } from "./types";

export function temperatureFor(req: Pick<StreamRequest, "temperature" | "model" | "provider">): number | undefined {
  const t = req.temperature;
  if (t === undefined || !Number.isFinite(t)) return undefined;
  return temperatureApplies(req.provider.api, req.model) ? Math.min(2, Math.max(0, t)) : undefined;
}

/** Whether a temperature set for `model` behind `api` is sent at all (the dialog says when not). */
export function temperatureApplies(api: ApiKind, model: string): boolean {
  if (api === "anthropic-messages") return false;
  return findModel(model)?.thinking !== "openai-effort";
}
