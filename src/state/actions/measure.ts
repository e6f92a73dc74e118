/**
 * Context size with the real tokenizer (in the worker), through the one metric of DESIGN §3:
 * `contextTokens` of the path as `buildContext` renders it, calibrated for Claude.
 */
import type { Entry } from "../../core/session/entries";
import { calibratedCount, isCalibrated } from "../../core/tokens/claude-estimate";
import { getWorker } from "../../worker/client";
import type { ChatTarget } from "./chat-target";

export type Measured = { tokens: number; exact: boolean };

export async function measureContext(path: readonly Entry[], target: ChatTarget): Promise<Measured> {
  const raw = await getWorker().contextTokens(
    path,
    { systemPrompt: target.systemPrompt, targetApi: target.api },
    target.model.info.encoding,
  );
  if (!target.calibration) return { tokens: raw, exact: true };
  return { tokens: calibratedCount(target.calibration, raw), exact: isCalibrated(target.calibration) };
}
