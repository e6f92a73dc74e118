/**
 * Prices per million tokens, in US dollars, for the models whose price is published.
 *
 * Source: the providers' pricing pages as mirrored by pi-ai 0.73.1 (`models.generated.ts`, in
 * node_modules/@mariozechner/pi-ai), checked 2026-11-24. Update from the same source; a model not
 * listed here has no price on purpose: Grove says "cost unknown" rather than guess (the Claude
 * 5.x and GPT-6 generations are not in that table yet).
 *
 * `cacheWrite` is Anthropic's 5-minute cache write; OpenAI does not charge cache writes (0).
 */
export const PRICES_AS_OF = "2026-11-24";

export type Price = { input: number; output: number; cacheRead: number; cacheWrite: number };

const p = (input: number, output: number, cacheRead: number, cacheWrite = 0): Price => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

/** Keyed by the registry's model id (models.ts `normalizeModelId`: no date suffix, no router prefix). */
export const PRICES: Readonly<Record<string, Price>> = {
  // Anthropic
  "claude-opus-4-7": p(5, 25, 0.5, 6.25),
  "claude-opus-4-6": p(5, 25, 0.5, 6.25),
  "claude-opus-4-5": p(5, 25, 0.5, 6.25),
  "claude-opus-4-1": p(15, 75, 1.5, 18.75),
  "claude-opus-4-0": p(15, 75, 1.5, 18.75),
  "claude-sonnet-4-6": p(3, 15, 0.3, 3.75),
  "claude-sonnet-4-5": p(3, 15, 0.3, 3.75),
  "claude-sonnet-4-0": p(3, 15, 0.3, 3.75),
  "claude-haiku-4-5": p(1, 5, 0.1, 1.25),
  "claude-3-7-sonnet": p(3, 15, 0.3, 3.75),
  "claude-3-5-haiku": p(0.8, 4, 0.08, 1),
  // OpenAI
  "gpt-5.5": p(5, 30, 0.5),
  "gpt-5.4": p(2.5, 15, 0.25),
  "gpt-5.4-mini": p(0.75, 4.5, 0.075),
  "gpt-5.4-nano": p(0.2, 1.25, 0.02),
  "gpt-5.2": p(1.75, 14, 0.175),
  "gpt-5.1": p(1.25, 10, 0.13),
  "gpt-5": p(1.25, 10, 0.125),
  "gpt-5-mini": p(0.25, 2, 0.025),
  "gpt-5-nano": p(0.05, 0.4, 0.005),
  "gpt-4.1": p(2, 8, 0.5),
  "gpt-4.1-mini": p(0.4, 1.6, 0.1),
  "gpt-4.1-nano": p(0.1, 0.4, 0.03),
  "gpt-4o": p(2.5, 10, 1.25),
  "gpt-4o-mini": p(0.15, 0.6, 0.08),
  o3: p(2, 8, 0.5),
  "o4-mini": p(1.1, 4.4, 0.28),
};
