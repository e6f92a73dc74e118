/**
 * The meter's one rule for which number to show (issue 12 item 6). One unchanged chat once read
 * 147, ≈134, 110 and 97 on later visits: the reported usage of the last reply, the character
 * estimate, the calibrated tokenizer estimate (its calibration moving with every reply) and
 * Anthropic's count took turns depending on what answered first. Now:
 *
 * 1. Sources are ranked: Anthropic's count of the exact request > the real tokenizer (exact for
 *    GPT models) > the calibrated Claude estimate > the character estimate. Reported usage is not a
 *    source (it measured the previous request, output included); it only calibrates estimates.
 * 2. A reading is kept per context (`meterContextKey`: the path's leaf, the model and endpoint, the
 *    system prompt, the request parameters). A kept reading is shown as it is on every later visit;
 *    only a strictly better source replaces it (an estimate becoming Anthropic's count, once).
 * 3. The character estimate is never kept: it is what shows, marked as an estimate, until the
 *    first measurement of a context is in.
 */

export type MeterSource = "anthropic" | "tokenizer" | "calibrated" | "estimate";

export type MeterReading = { tokens: number; source: MeterSource };

const RANK: Readonly<Record<MeterSource, number>> = { estimate: 0, calibrated: 1, tokenizer: 2, anthropic: 3 };

/** Whether the reading is a count rather than an estimate (the meter drops its "≈"). */
export const isExact = (r: MeterReading): boolean => r.source === "anthropic" || r.source === "tokenizer";

/**
 * The reading to show and keep for one context: the kept one, unless `fresh` comes from a strictly
 * better source. Character estimates are never returned as the reading to keep.
 */
export function chooseReading(
  kept: MeterReading | undefined,
  fresh: MeterReading | undefined,
): MeterReading | undefined {
  const candidate = fresh && fresh.source !== "estimate" ? fresh : undefined;
  if (!kept) return candidate;
  if (!candidate) return kept;
  return RANK[candidate.source] > RANK[kept.source] ? candidate : kept;
}

/** Whether a kept reading can still be bettered (so it is worth measuring again). */
export function canImprove(kept: MeterReading | undefined, best: MeterSource): boolean {
  return !kept || RANK[best] > RANK[kept.source];
}

/** A short, stable hash (FNV-1a, 32 bit) so long system prompts do not bloat the key. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

export type MeterContext = {
  sessionId: string;
  /** Entries are immutable and linked to their parent: the leaf names the whole path. */
  leafId: string;
  providerId: string;
  baseUrl: string;
  modelId: string;
  encoding: string;
  systemPrompt: string;
  /** Whatever else changes the request (thinking, output limit), as JSON. */
  request: string;
};

/** The key a reading is kept under: everything the count depends on, nothing else. */
export function meterContextKey(c: MeterContext): string {
  return [
    c.sessionId,
    c.leafId,
    c.providerId,
    shortHash(c.baseUrl.trim()),
    c.modelId,
    c.encoding,
    shortHash(c.systemPrompt),
    shortHash(c.request),
  ].join("|");
}
