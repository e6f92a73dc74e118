/**
 * Context size through the one metric of DESIGN §3: for an Anthropic-API provider with a key,
 * Anthropic's own count of the exact request (exact-count.ts, cached); otherwise, or when that count
 * is not in within `waitMs`, `contextTokens` of the path as `buildContext` renders it with the real
 * tokenizer (in the worker), calibrated for Claude.
 */
import type { Entry } from "../../core/session/entries";
import { calibratedCount, isCalibrated } from "../../core/tokens/claude-estimate";
import { getWorker } from "../../worker/client";
import type { ChatTarget } from "../models/chat-target";
import { type ExactCounter, exactCounter, SEND_COUNT_WAIT_MS } from "./exact-count";
import { isContextOf, type SendContext } from "./send-context";

/**
 * `exact`: counted, not estimated (OpenAI's tokenizer locally, or Anthropic's count of the request:
 * `countedBy: "anthropic"`). The Claude estimate is never exact, calibrated or not (`calibrated`).
 */
export type Measured = { tokens: number; exact: boolean; countedBy?: "anthropic"; calibrated?: boolean };

export async function measureContext(
  path: readonly Entry[],
  target: ChatTarget,
  waitMs: number = SEND_COUNT_WAIT_MS,
  counter: ExactCounter = exactCounter,
  /** The send's context (send-context.ts): Anthropic's count reuses its request instead of building it again. */
  built?: SendContext,
  /**
   * `parallel`: the local count runs beside Anthropic's (a send's check cannot wait for one, then
   * the other). `fallback` (the meter): only when Anthropic's count is not had, so a Claude chat
   * with a key never starts the compaction worker and its tokenizer table for the meter.
   */
  local: "parallel" | "fallback" = "parallel",
): Promise<Measured> {
  // Both at once: the local count is the answer whenever the exact one is not.
  const early = local === "parallel" ? localMeasure(path, target) : null;
  early?.catch(() => {});
  const exact = await counter
    .exactTokens(path, target, waitMs, isContextOf(built, path, target) ? built?.request : undefined)
    .catch(() => null);
  if (exact !== null) return { tokens: exact, exact: true, countedBy: "anthropic" };
  return early ?? localMeasure(path, target);
}

async function localMeasure(path: readonly Entry[], target: ChatTarget): Promise<Measured> {
  const raw = await getWorker().contextTokens(
    path,
    { systemPrompt: target.systemPrompt, targetApi: target.api },
    target.model.info.encoding,
  );
  if (!target.calibration) return { tokens: raw, exact: true };
  return {
    tokens: calibratedCount(target.calibration, raw),
    exact: false,
    calibrated: isCalibrated(target.calibration),
  };
}

/**
 * Tokens of the tool definitions a request carries (`toolDefinitionsText`), with the chat's tokenizer
 * (calibrated for Claude, like the context): the context meter shows them as their own share.
 */
export async function measureToolDefinitions(text: string, target: ChatTarget): Promise<number> {
  if (text === "") return 0;
  const [raw = 0] = await getWorker().countTexts(target.model.info.encoding, [text]);
  return target.calibration ? calibratedCount(target.calibration, raw) : raw;
}
