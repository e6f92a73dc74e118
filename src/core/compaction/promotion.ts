/**
 * Context promotion (seed 002): when a chat's context is full (overflow, output-length stop,
 * threshold, preflight), move it to the model's configured larger sibling before compacting.
 *
 * Rules:
 * 1. Promotion first: the candidates are the model's larger sibling, then that one's, and so on
 *    (each model once: a cycle in the settings ends the chain).
 * 2. The first candidate the context fits is the promotion. "Fits" is the reason's own limit:
 *    under the candidate's automatic threshold after a reply (threshold, length), with room for a
 *    full reply before a send or after an overflow (preflight, overflow).
 * 3. Compact only when no sibling is set, none can be used (no key, unknown provider: the caller
 *    leaves it out), or every one is also full.
 *
 * Pure: no I/O; the caller resolves models and counts tokens.
 */
import type { CompactionReason, ModelRef } from "../session/entries";

/** Larger sibling per model id (Settings → Models). */
export type LargerModels = Readonly<Record<string, ModelRef>>;

/** How long a chain is followed at most (a settings mistake must not make a long walk). */
const MAX_CHAIN = 8;

/** Rule 1: the candidates for `from`, nearest first. */
export function promotionChain(from: ModelRef, larger: LargerModels): ModelRef[] {
  const seen = new Set<string>([from.modelId]);
  const chain: ModelRef[] = [];
  let next = larger[from.modelId];
  while (next && !seen.has(next.modelId) && chain.length < MAX_CHAIN) {
    chain.push(next);
    seen.add(next.modelId);
    next = larger[next.modelId];
  }
  return chain;
}

export type PromotionCandidate = {
  ref: ModelRef;
  contextWindow: number;
  maxOutput: number;
  /** Its automatic compaction threshold. */
  threshold: number;
  /** The context's tokens as this model counts them. */
  tokens: number;
};

/** Rule 2: the tokens a candidate can take for `reason`. */
function promotionLimit(c: Omit<PromotionCandidate, "tokens" | "ref">, reason: CompactionReason): number {
  switch (reason) {
    case "threshold":
    case "length":
    case "idle":
    case "manual":
      return c.threshold;
    case "overflow":
    case "preflight":
      return c.contextWindow - c.maxOutput;
  }
}

/** Rules 2–3: the model to switch to, or null (compact). Candidates in chain order. */
export function choosePromotion(candidates: readonly PromotionCandidate[], reason: CompactionReason): ModelRef | null {
  for (const c of candidates) if (c.tokens <= promotionLimit(c, reason)) return c.ref;
  return null;
}
