/**
 * The one token metric (DESIGN §3): `contextTokens` counts exactly what `buildContext` returns, so
 * the meter, the thresholds, the progress guard and `tokensAfter` can never disagree.
 * The text counter is injected (an estimate today, a real tokenizer later). No I/O here, no caching.
 */
import { attachmentTokens } from "../attachments/attachment-tokens";
import { atPause, finish, type Steps } from "../steps";
import { type BuildContextOptions, buildContextSteps } from "./build-context";
import { contextBlockText, type LlmContext } from "./context";
import type { Entry } from "./entries";

/**
 * Tokens each message costs beyond its text (role marker, turn delimiters), in tokens per message.
 * Providers differ (OpenAI's chat format spends about 3–4); one small constant keeps the metric simple.
 * The system prompt, when present, is counted as one more message.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Counts a piece of text in tokens. Must be pure and deterministic. */
export type CountText = (text: string) => number;

/**
 * Tokens in an already built context: the system prompt, then every block's text (thinking blocks
 * by their visible text, reasoning items by their summary; signatures, redacted payloads and encrypted
 * reasoning are opaque and not counted), images and PDFs by their estimate (attachment-tokens.ts), plus
 * `MESSAGE_OVERHEAD_TOKENS` per message.
 */
export function countContextTokens(context: LlmContext, countText: CountText): number {
  return finish(countContextTokensSteps(context, countText));
}

/** `countContextTokens` in steps (core/steps.ts): pauses every few messages, same count. */
function* countContextTokensSteps(context: LlmContext, countText: CountText): Steps<number> {
  let total = context.system === "" ? 0 : MESSAGE_OVERHEAD_TOKENS + countText(context.system);
  for (let i = 0; i < context.messages.length; i++) {
    if (atPause(i)) yield;
    const message = context.messages[i];
    if (!message) continue;
    total += MESSAGE_OVERHEAD_TOKENS;
    for (const block of message.content) {
      // An image or a PDF costs its estimate (attachment-tokens.ts), not the tokens of its label.
      total +=
        block.type === "image" || block.type === "document"
          ? attachmentTokens(block)
          : countText(contextBlockText(block));
    }
  }
  return total;
}

/** Tokens in `buildContext(path, opts)`: the same context, counted once. */
export function contextTokens(path: readonly Entry[], opts: BuildContextOptions, countText: CountText): number {
  return finish(contextTokensSteps(path, opts, countText));
}

/**
 * `contextTokens` in steps (core/steps.ts): the context built and counted a few entries at a time,
 * for the meter's estimate of a long path (state/app/run-in-slices.ts). The same number.
 */
export function* contextTokensSteps(
  path: readonly Entry[],
  opts: BuildContextOptions,
  countText: CountText,
): Steps<number> {
  const context = yield* buildContextSteps(path, opts);
  return yield* countContextTokensSteps(context, countText);
}
