/**
 * "Surely fits" without the tokenizer: an upper bound on `contextTokens` (DESIGN §3) from UTF-8
 * byte counts. Every token of the BPE encodings is at least one byte, the Claude estimate is
 * 1.2 × o200k times its calibration ratio, so the bound can only overcount. When even the bound is
 * under a limit, the exact count (a round trip of the whole path to the worker, and on a fresh tab
 * the worker's start and rank files) cannot be over it, and the send goes out at once. Near a
 * limit the caller still counts exactly.
 *
 * The bound is taken of a context already built (send-context.ts builds it once per send); what a
 * reply appended to it adds is bounded from the reply alone, so the check after the reply needs
 * no second build.
 */
import { attachmentTokens } from "../../core/attachments/attachment-tokens";
import type { LlmContext } from "../../core/session/context";
import { type CountText, countContextTokens, MESSAGE_OVERHEAD_TOKENS } from "../../core/session/context-tokens";
import type { Entry, MessageEntry } from "../../core/session/entries";
import { blockText } from "../../core/session/entry-text";
import { LEADING_USER_PLACEHOLDER, MERGE_DELIMITER } from "../../core/session/normalize-messages";
import { CLAUDE_TOKENS_PER_O200K_TOKEN } from "../../core/tokens/claude-estimate";
import type { ChatTarget } from "../models/chat-target";

/** UTF-8 bytes of `text`, from above: a surrogate pair counts 6 (it is 4). */
function utf8BytesAtMost(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c >= 0x800 ? 2 : 1;
  }
  return bytes;
}

const isClaude = (target: ChatTarget): boolean => target.model.info.encoding === "claude";

/** A text's tokens for `target`, from above, before the Claude calibration ratio. */
function textAtMost(target: ChatTarget): CountText {
  return isClaude(target) ? (t) => Math.ceil(utf8BytesAtMost(t) * CLAUDE_TOKENS_PER_O200K_TOKEN) + 1 : utf8BytesAtMost;
}

/** The Claude calibration ratio, never below 1 (the bound must not shrink). */
const ratioAtLeastOne = (target: ChatTarget): number => Math.max(1, target.calibration?.ratio ?? 1);

/** An upper bound on the tokens `context` (as `buildContext` returned it for `target`'s api) costs. */
export function contextTokensAtMost(context: LlmContext, target: ChatTarget): number {
  const raw = countContextTokens(context, textAtMost(target));
  return isClaude(target) ? Math.ceil(raw * ratioAtLeastOne(target)) + 1 : raw;
}

/**
 * An upper bound on what `entry`, appended at the end of a path, adds to the bound of that path's
 * context: its blocks as the context carries them (thinking and reasoning counted, as if sent back),
 * one message's overhead, the delimiter of a merge with the message before it, and the user
 * placeholder a context opening with it would get; for a continuation, the message it continues
 * again (`previous`, the path's last entry: joined to the reply, a thinking-only partial comes back
 * into the context). Appending a message never makes the rest of the context larger otherwise (an
 * older tool output may be pruned), so bound(path) + this ≥ bound(path + entry).
 */
export function appendedTokensAtMost(entry: MessageEntry, target: ChatTarget, previous?: Entry): number {
  const count = textAtMost(target);
  let raw =
    MESSAGE_OVERHEAD_TOKENS + count(MERGE_DELIMITER) + MESSAGE_OVERHEAD_TOKENS + count(LEADING_USER_PLACEHOLDER);
  const continued = previous?.type === "message" && previous.id === entry.continues ? previous.content : [];
  for (const b of [...entry.content, ...continued]) {
    const attachment = entry.role === "user" && (b.type === "image" || b.type === "document");
    raw += attachment ? attachmentTokens(b) : count(blockText(b, { thinking: "keep" }));
  }
  return isClaude(target) ? Math.ceil(raw * ratioAtLeastOne(target)) : raw;
}

/** Whether a context bounded by `tokensAtMost` surely stays at or under `limit` tokens (false: count it exactly). */
export function fitsWithoutCounting(tokensAtMost: number, limit: number): boolean {
  return tokensAtMost <= limit;
}

/**
 * More bytes per token than text averages (prose runs about 4-5 in the BPE encodings, code and
 * other scripts fewer): the upper bound divided by this is an estimate that stays under the count.
 */
const BYTES_PER_TOKEN_AT_MOST_TYPICAL = 6;

/**
 * Whether a context bounded by `tokensAtMost` is surely far enough over `limit` to say so before
 * counting: even the estimate from the upper bound divided by a generous bytes-per-token is over
 * it. False when unsure (then only the exact count tells).
 */
export function likelyOver(tokensAtMost: number, limit: number): boolean {
  return tokensAtMost / BYTES_PER_TOKEN_AT_MOST_TYPICAL > limit;
}
