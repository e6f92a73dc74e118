/**
 * What a compaction costs, estimated before it runs (issue 29, the Compact dialog): the summarizer
 * call, and the input of the next chat request before and after. Upper-bound estimates from the
 * context's token count, the kept budget and the summarizer's output budget — never usage; the
 * dialog marks them "≈". A model without a price gives null for its part. Pure.
 */
import { outputBudgets } from "../compaction/requests";
import type { Price } from "./prices";

/** Prompts, framing and the short-summary call around the folded text: a fixed allowance. */
export const SUMMARIZER_OVERHEAD_TOKENS = 1_000;

export type CompactionEstimateInput = {
  /** The chat's context now (the meter's count). */
  contextTokens: number;
  /** Tokens kept word for word after the cut (`keepRecentTokensFor`). */
  keepTokens: number;
  reserveTokens: number;
  summarizerWindow: number;
  summarizerMaxOutput?: number;
  summarizerPrice: Price | undefined;
  chatPrice: Price | undefined;
};

export type CompactionEstimate = {
  summarizer: { input: number; output: number; usd: number | null };
  next: { before: number; after: number; usdBefore: number | null; usdAfter: number | null };
};

const usd = (input: number, output: number, price: Price | undefined): number | null =>
  price ? (input * price.input + output * price.output) / 1_000_000 : null;

export function estimateCompaction(i: CompactionEstimateInput): CompactionEstimate {
  const folded = Math.max(0, i.contextTokens - i.keepTokens);
  const budgets = outputBudgets(i.reserveTokens, i.summarizerWindow, i.summarizerMaxOutput);
  const input = folded + SUMMARIZER_OVERHEAD_TOKENS;
  const output = budgets.summary + budgets.short;
  const after = Math.min(i.contextTokens, i.keepTokens + budgets.summary + SUMMARIZER_OVERHEAD_TOKENS);
  return {
    summarizer: { input, output, usd: usd(input, output, i.summarizerPrice) },
    next: {
      before: i.contextTokens,
      after,
      usdBefore: usd(i.contextTokens, 0, i.chatPrice),
      usdAfter: usd(after, 0, i.chatPrice),
    },
  };
}
