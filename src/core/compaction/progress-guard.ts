/**
 * The "never a loop" guard (DESIGN §4.7): a compaction that leaves the context above 80% of the
 * threshold pauses automatic compaction (with one warning) until a manual compaction or a model
 * change — otherwise the next reply would trigger the next compaction, and so on.
 * No I/O here and no state: the state layer keeps the paused flag and shows the warning.
 */

/** Share of the threshold a compaction must get the context under for automatic compaction to go on. */
const PROGRESS_GUARD_FRACTION = 0.8;

/**
 * Whether automatic compaction must pause after a compaction that left `tokensAfter` tokens
 * (`contextTokens` of the path with the new entry) against `thresholdTokens` (`thresholdFor`).
 *
 * @example progressGuard(150_000, 170_000) === true   // above 136,000
 */
export function progressGuard(tokensAfter: number, thresholdTokens: number): boolean {
  return tokensAfter > thresholdTokens * PROGRESS_GUARD_FRACTION;
}
