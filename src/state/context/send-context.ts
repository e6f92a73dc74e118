/**
 * One send's context, built once per step (issue 23): the request for the chat's target (what
 * runReply sends), and from that same build the upper bound on the context's tokens (fits.ts) that
 * lets the preflight and the threshold check after the reply skip the count. A compaction or a
 * promotion changes the path or the target: a new step, a new build.
 *
 * The request is built for the target provider; the bound is of the one metric (DESIGN §3: no
 * provider named). They are the same context unless the path carries the provider's own reasoning
 * items or native compaction (the only things a provider id changes): only then is the metric's
 * context built too.
 */
import type { LlmContext } from "../../core/session/context";
import type { Entry, MessageEntry } from "../../core/session/entries";
import type { ChatTarget } from "../models/chat-target";
import { buildCounted, requestOptions } from "./context-builds";
import { appendedTokensAtMost, contextTokensAtMost } from "./fits";

export type SendContext = {
  path: readonly Entry[];
  target: ChatTarget;
  /** The request to the target: what the reply sends (and Anthropic's exact count counts). */
  request: LlmContext;
  /** An upper bound on `contextTokens(path)` for the target (fits.ts). */
  tokensAtMost: number;
  /** What the request and the bound depend on; a target with another key needs its own build. */
  key: string;
};

const keyOf = (target: ChatTarget): string =>
  JSON.stringify([
    target.systemPrompt,
    target.api,
    target.provider.id,
    target.model.info.encoding,
    target.calibration?.ratio ?? 1,
  ]);

/** Anything in the request only its own provider gets (then the metric's context differs from it). */
const providerOwn = (request: LlmContext): boolean =>
  request.native !== undefined ||
  request.messages.some((m) => m.role === "assistant" && m.content.some((b) => b.type === "reasoning"));

/** Builds the step's context for `path` and `target`: once, or twice when the provider's own material is on the path. */
export function sendContext(path: readonly Entry[], target: ChatTarget): SendContext {
  const request = buildCounted(path, requestOptions(target));
  const metric = providerOwn(request)
    ? buildCounted(path, { systemPrompt: target.systemPrompt, targetApi: target.api })
    : request;
  return { path, target, request, tokensAtMost: contextTokensAtMost(metric, target), key: keyOf(target) };
}

/** Whether `built` is the context of `path` for `target` (same path object, same target key). */
export function isContextOf(built: SendContext | undefined, path: readonly Entry[], target: ChatTarget): boolean {
  return built !== undefined && built.path === path && built.key === keyOf(target);
}

/** The request for `path` to `target`: the step's, when it was built for them, else built now. */
export function requestFor(path: readonly Entry[], target: ChatTarget, built?: SendContext): LlmContext {
  return built && isContextOf(built, path, target) ? built.request : buildCounted(path, requestOptions(target));
}

/**
 * An upper bound on the context's tokens once `reply` is appended to the step's path, without a
 * second build; null when the reply went to another target than the step was built for.
 */
export function tokensAtMostWithReply(built: SendContext, reply: MessageEntry, target: ChatTarget): number | null {
  if (built.key !== keyOf(target)) return null;
  return built.tokensAtMost + appendedTokensAtMost(reply, target, built.path.at(-1));
}
