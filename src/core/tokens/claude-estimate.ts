/**
 * Claude token counts: Anthropic publishes no tokenizer, so Grove estimates and then calibrates.
 *
 * The estimate is the o200k_base count × `CLAUDE_TOKENS_PER_O200K_TOKEN`, not a characters-per-token
 * rule. A BPE count already follows what makes token counts move (code vs prose, numbers,
 * whitespace, CJK vs Latin), so the ratio between it and Claude's real count stays nearly constant
 * as a conversation's content changes, and one learned ratio keeps fitting. A character heuristic
 * is off by ±50% between prose, code and CJK, and a ratio learned on one would mislead on the next.
 * The price is loading the o200k ranks in the worker for Claude users too (once, ~2 MB).
 *
 * Calibration: after each reply the provider reports the input tokens it billed for the request
 * (`Usage.input`). With the raw estimate of that same request, `updateCalibration` keeps a
 * per-model moving ratio (reported ÷ estimated, as decayed sums so large requests weigh more and
 * old ones fade), and `calibratedCount` applies it. Until the first sample a per-model prior
 * applies (`claudeTokenizerPrior`) and `isCalibrated` is false: the meter shows "≈".
 *
 * Pure: the caller (state/) persists `CalibrationState`s, e.g. as a `CalibrationTable` in settings.
 * No I/O here.
 */
import { normalizeModelId } from "./models";
import type { TokenCounter } from "./tokenizer";

/**
 * Claude tokens per o200k token, before calibration. Third-party comparisons of Claude 3.x's
 * tokenizer with GPT-4o's (o200k) found ~16% more tokens on English prose, ~21% on math and ~30% on
 * code; 1.2 sits in that range. Erring high is the safer side: compaction comes a little early
 * rather than the provider rejecting an overflowing request.
 */
export const CLAUDE_TOKENS_PER_O200K_TOKEN = 1.2;

/**
 * Extra factor for models on Anthropic's newer tokenizer (Claude Opus 4.7 and later), which per
 * Anthropic's model pages yields up to ~30% more tokens for the same text (see models.ts).
 */
export const NEWER_CLAUDE_TOKENIZER_FACTOR = 1.3;

/** Weight left to the history at each new sample: 0.5 = a reply counts half as much one reply later. */
export const CALIBRATION_DECAY = 0.5;

/** Samples whose reported ÷ estimated ratio falls outside this range are ignored as bogus. */
const CALIBRATION_RATIO_RANGE = { min: 0.25, max: 4 } as const;

/** The Claude estimate over an o200k counter (`exact: false`; calibration is applied by the caller). */
export function claudeCounter(o200k: TokenCounter): TokenCounter {
  return {
    encoding: "claude",
    exact: false,
    count: (text) => Math.round(o200k.count(text) * CLAUDE_TOKENS_PER_O200K_TOKEN),
  };
}

/** Claude model versions from which the newer tokenizer is used (major, minor). */
const NEWER_TOKENIZER_FROM = { major: 4, minor: 7 } as const;

/** `claude-opus-4-7`, `claude-sonnet-5`, `claude-fable-5-1` (family first) or `claude-3-5-sonnet` (version first). */
const FAMILY_FIRST = /^claude-[a-z]+-(\d+)(?:-(\d+))?(?:-|$)/;
const VERSION_FIRST = /^claude-(\d+)(?:-(\d+))?-[a-z]/;

/**
 * The calibration ratio assumed before any sample: `NEWER_CLAUDE_TOKENIZER_FACTOR` for Claude 4.7
 * and later (and for ids whose version can't be read: new models are the likely unknowns), 1 for
 * earlier Claude models and for non-Claude ids.
 */
export function claudeTokenizerPrior(modelId: string): number {
  const id = normalizeModelId(modelId);
  if (!id.startsWith("claude")) return 1;
  const m = FAMILY_FIRST.exec(id) ?? VERSION_FIRST.exec(id);
  if (!m) return NEWER_CLAUDE_TOKENIZER_FACTOR;
  const major = Number(m[1]);
  const minor = m[2] === undefined ? 0 : Number(m[2]);
  const newer =
    major > NEWER_TOKENIZER_FROM.major || (major === NEWER_TOKENIZER_FROM.major && minor >= NEWER_TOKENIZER_FROM.minor);
  return newer ? NEWER_CLAUDE_TOKENIZER_FACTOR : 1;
}

/** One model's calibration. Plain JSON, so the caller can persist it as is. */
export type CalibrationState = {
  /** What `calibratedCount` multiplies raw counts by: the prior until the first sample. */
  readonly ratio: number;
  /** Decayed sum of provider-reported input tokens over the samples. */
  readonly reported: number;
  /** Decayed sum of the raw local counts of the same requests. */
  readonly local: number;
  readonly samples: number;
};

/** One reply's facts: the provider's `Usage.input`, and the raw count of exactly the request sent. */
export type CalibrationSample = { reportedInput: number; localCount: number };

/** Calibrations by `normalizeModelId(modelId)`. */
export type CalibrationTable = Readonly<Record<string, CalibrationState>>;

/** The state before any reply from `modelId`: its prior, not calibrated. */
export function initialCalibration(modelId: string): CalibrationState {
  return { ratio: claudeTokenizerPrior(modelId), reported: 0, local: 0, samples: 0 };
}

const isPositive = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n > 0;

/**
 * `state` with one more sample. A sample with a missing or non-positive figure, or a ratio outside
 * `CALIBRATION_RATIO_RANGE` (a provider that reports something else as input), leaves it unchanged.
 */
export function updateCalibration(state: CalibrationState, sample: CalibrationSample): CalibrationState {
  const { reportedInput, localCount } = sample;
  if (!isPositive(reportedInput) || !isPositive(localCount)) return state;
  const sampleRatio = reportedInput / localCount;
  if (sampleRatio < CALIBRATION_RATIO_RANGE.min || sampleRatio > CALIBRATION_RATIO_RANGE.max) return state;
  const reported = state.reported * CALIBRATION_DECAY + reportedInput;
  const local = state.local * CALIBRATION_DECAY + localCount;
  return { ratio: reported / local, reported, local, samples: state.samples + 1 };
}

/** `rawCount` (from the Claude counter) as the model would count it, to the best of our knowledge. */
export function calibratedCount(state: CalibrationState, rawCount: number): number {
  return Math.round(rawCount * state.ratio);
}

/** Whether a reply has calibrated `state`; until then the UI marks counts with "≈". */
export function isCalibrated(state: CalibrationState): boolean {
  return state.samples > 0;
}

/** Defends against a persisted value of the wrong shape (older version, hand-edited settings). */
function isCalibrationState(value: unknown): value is CalibrationState {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const nonNegative = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n >= 0;
  return isPositive(v.ratio) && nonNegative(v.reported) && nonNegative(v.local) && nonNegative(v.samples);
}

/** `modelId`'s calibration in `table` (dated snapshots share it), else its initial state. */
export function calibrationFor(table: CalibrationTable, modelId: string): CalibrationState {
  const state: unknown = table[normalizeModelId(modelId)];
  return isCalibrationState(state) ? state : initialCalibration(modelId);
}

/** `table` with `sample` applied to `modelId`'s calibration. */
export function withCalibrationSample(
  table: CalibrationTable,
  modelId: string,
  sample: CalibrationSample,
): CalibrationTable {
  const before = calibrationFor(table, modelId);
  const after = updateCalibration(before, sample);
  return after === before ? table : { ...table, [normalizeModelId(modelId)]: after };
}
