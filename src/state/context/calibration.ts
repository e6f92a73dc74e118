/**
 * Learning the Claude estimate's calibration (core/tokens/claude-estimate.ts) from the usage the
 * provider reports for each Claude request: into its store (calibration-store.ts) and the settings
 * table.
 */
import type { LlmContext } from "../../core/session/context";
import { withCalibrationSample } from "../../core/tokens/claude-estimate";
import type { TokenEncoding } from "../../core/tokens/models";
import { setSetting } from "../../db/settings";
import { getWorker } from "../../worker/client";
import type { ReplyResult } from "../reply/reply";
import { CALIBRATION_KEY, useCalibrationStore } from "./calibration-store";

type CountContext = (context: LlmContext, encoding: TokenEncoding) => Promise<number>;

/** Learn the Claude estimate's calibration from the usage the provider reported for the request. */
export async function learnCalibration(
  result: Pick<ReplyResult, "entry" | "target" | "context">,
  /** The local count of the request (default: the worker's tokenizer). */
  countContext: CountContext = (context, encoding) => getWorker().countContext(context, encoding),
): Promise<void> {
  const { entry, target, context } = result;
  if (!target?.calibration || !context || !entry.usage?.input) return;
  try {
    const localCount = await countContext(context, target.model.info.encoding);
    const { table } = useCalibrationStore.getState();
    const calibration = withCalibrationSample(table, target.modelId, {
      reportedInput: entry.usage.input,
      localCount,
    });
    if (calibration === table) return;
    useCalibrationStore.setState({ table: calibration });
    await setSetting(CALIBRATION_KEY, calibration);
  } catch {
    // Calibration is a refinement: the estimate stays usable without this sample.
  }
}
