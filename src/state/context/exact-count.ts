/**
 * Exact Claude counts (issue 10 item 3): the chat's next request counted by Anthropic's
 * token-counting endpoint (providers/count-tokens.ts), cached by a hash of the request (model,
 * system, messages, thinking, endpoint), so the meter, the thresholds and the preflight ask once per
 * context. The calibrated estimate stays the fallback: `exactTokens` resolves null whenever there is
 * no count (another api, no key, offline, a compatible endpoint without count_tokens, a 4xx/5xx),
 * and a provider whose count failed is not asked again for `FAILURE_BACKOFF_MS`.
 *
 * Never slows a send: callers give a wait bound; a count not in by then resolves null (the caller
 * uses the estimate) and, when it arrives, fills the cache for the next ask.
 */

import type { LlmContext } from "../../core/session/context";
import type { Entry } from "../../core/session/entries";
import type { CountTokensFn, CountTokensRequest } from "../../providers/count-tokens";
import { attachmentDataFor } from "../composer/attachments";
import { type ChatTarget, requestParams } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { buildCounted, requestOptions } from "./context-builds";

/** Requests whose counts are kept (least recently used go first); one per context the meter showed. */
export const EXACT_COUNT_CACHE_SIZE = 64;
/** After a failed count, that provider endpoint is not asked again for this long (ms). */
export const FAILURE_BACKOFF_MS = 60_000;
/** The send path (preflight, threshold after a reply) waits at most this long for an uncached count (ms). */
export const SEND_COUNT_WAIT_MS = 1_000;
/** The meter waits this long for the exact count before it settles for the estimate (ms). */
export const METER_COUNT_WAIT_MS = 10_000;

/** The registry's counter, fetched with the registry on first use (the meter is on the first screen). */
const countTokens: CountTokensFn = async (req, signal) => {
  const { countTokens } = await import("../../providers/registry");
  return countTokens(req, signal);
};

export type ExactCounterDeps = {
  /** The counting call; default: providers/registry.ts `countTokens` (loads the adapter on first use). */
  count?: CountTokensFn;
  now?: () => number;
};

export type ExactCounter = {
  /**
   * Anthropic's count of the request for `path` to `target`, or null (estimate) within `waitMs`.
   * `request`: the request for this path and target as the send already built it (not built again).
   */
  exactTokens(path: readonly Entry[], target: ChatTarget, waitMs: number, request?: LlmContext): Promise<number | null>;
};

/** Whether the target can be counted exactly at all (an Anthropic-API provider with a key). */
export function countable(target: ChatTarget): boolean {
  return target.provider.api === "anthropic-messages" && target.provider.apiKey.trim() !== "";
}

/** The request a send from `path` would make, as the count endpoint gets it (the reply sends the same). */
function countRequest(path: readonly Entry[], target: ChatTarget, request?: LlmContext): CountTokensRequest {
  const settings = useSettingsStore.getState().settings;
  return {
    provider: target.provider,
    model: target.modelId,
    context: request ?? buildCounted(path, requestOptions(target)),
    ...requestParams(target, settings),
  };
}

/** The cache key: a SHA-256 of everything the count depends on (never the key itself). */
async function requestHash(req: CountTokensRequest): Promise<string> {
  const text = JSON.stringify([
    req.provider.id,
    req.provider.baseUrl.trim(),
    req.model,
    req.context.system,
    req.context.messages,
    req.thinking,
  ]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function createExactCounter(deps: ExactCounterDeps = {}): ExactCounter {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, number>();
  const inFlight = new Map<string, Promise<number | null>>();
  /** Endpoint (provider id + base URL) → time before which it is not asked again. */
  const failedUntil = new Map<string, number>();

  function remember(key: string, tokens: number): void {
    cache.delete(key);
    cache.set(key, tokens);
    for (const [old] of cache) {
      if (cache.size <= EXACT_COUNT_CACHE_SIZE) break;
      cache.delete(old);
    }
  }

  async function ask(key: string, endpoint: string, req: CountTokensRequest): Promise<number | null> {
    const result = await (deps.count ?? countTokens)(req);
    if (result.ok) {
      failedUntil.delete(endpoint);
      remember(key, result.inputTokens);
      return result.inputTokens;
    }
    failedUntil.set(endpoint, now() + FAILURE_BACKOFF_MS);
    return null;
  }

  return {
    async exactTokens(path, target, waitMs, request) {
      if (!countable(target)) return null;
      const endpoint = `${target.provider.id} ${target.provider.baseUrl.trim()}`;
      const req = countRequest(path, target, request);
      // Nothing to send yet: the API rejects an empty message list, and the estimate is the system prompt.
      if (req.context.messages.length === 0) return null;
      const key = await requestHash(req);
      const hit = cache.get(key);
      if (hit !== undefined) {
        remember(key, hit);
        return hit;
      }
      if ((failedUntil.get(endpoint) ?? 0) > now()) return null;
      let pending = inFlight.get(key);
      if (!pending) {
        // Images and PDFs are counted with their data (the endpoint prices them as a send would).
        pending = attachmentDataFor(req.context, target)
          .then((attachments) => ask(key, endpoint, attachments ? { ...req, attachments } : req))
          .catch(() => null)
          .finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), waitMs);
      });
      try {
        return await Promise.race([pending, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The app's one counter (one cache for the meter, thresholds and preflight). */
export const exactCounter: ExactCounter = createExactCounter();
