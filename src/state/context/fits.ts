/**
 * "Surely fits" without the tokenizer: an upper bound on `contextTokens` (DESIGN §3) from UTF-8
 * byte counts. Every token of the BPE encodings is at least one byte, the Claude estimate is
 * 1.2 × o200k times its calibration ratio, so the bound can only overcount. When even the bound is
 * under a limit, the exact count (a round trip of the whole path to the worker, and on a fresh tab
 * the worker's start and rank files) cannot be over it, and the send goes out at once. Near a
 * limit the caller still counts exactly.
 */
import { countContextTokens } from "../../core/session/context-tokens";
import type { Entry } from "../../core/session/entries";
import { CLAUDE_TOKENS_PER_O200K_TOKEN } from "../../core/tokens/claude-estimate";
import type { ChatTarget } from "../models/chat-target";
import { buildCounted } from "./context-builds";

/** UTF-8 bytes of `text`, from above: a surrogate pair counts 6 (it is 4). */
export function utf8BytesAtMost(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c >= 0x800 ? 2 : 1;
  }
  return bytes;
}

/** An upper bound on the tokens `buildContext(path)` costs for `target`. */
export function contextTokensAtMost(path: readonly Entry[], target: ChatTarget): number {
  const context = buildCounted(path, { systemPrompt: target.systemPrompt, targetApi: target.api });
  if (target.model.info.encoding !== "claude") return countContextTokens(context, utf8BytesAtMost);
  const raw = countContextTokens(context, (t) => Math.ceil(utf8BytesAtMost(t) * CLAUDE_TOKENS_PER_O200K_TOKEN) + 1);
  return Math.ceil(raw * Math.max(1, target.calibration?.ratio ?? 1)) + 1;
}

/** Whether the context surely stays at or under `limit` tokens (false: count it exactly). */
export function fitsWithoutCounting(path: readonly Entry[], target: ChatTarget, limit: number): boolean {
  return contextTokensAtMost(path, target) <= limit;
}

/**
 * More bytes per token than text averages (prose runs about 4-5 in the BPE encodings, code and
 * other scripts fewer): the upper bound divided by this is an estimate that stays under the count.
 */
const BYTES_PER_TOKEN_AT_MOST_TYPICAL = 6;

/**
 * Whether the context is surely far enough over `limit` to say so before counting: even the
 * estimate from an upper bound divided by a generous bytes-per-token is over it. False when unsure
 * (then only the exact count tells).
 */
export function likelyOver(path: readonly Entry[], target: ChatTarget, limit: number): boolean {
  return contextTokensAtMost(path, target) / BYTES_PER_TOKEN_AT_MOST_TYPICAL > limit;
}
