/**
 * Bounded, visible retries around any StreamFn (DESIGN §4.7, §7).
 *
 * A failed attempt is retried only when nothing was streamed yet (no text or thinking delta) and
 * `isRetryable` says waiting can help: rate limits, overloaded, 5xx. An exhausted quota, context
 * overflow, auth, invalid requests, network failures and aborts end the stream at once.
 * Before each wait it yields `retry_wait`, so the UI can say "retrying in 8 s (2/4)". The wait
 * honours the provider's retry-after; without one it backs off exponentially with jitter. A wait
 * the provider asks for that is longer than `maxDelayMs` is not waited out: the error is final.
 *
 * Keeps the StreamFn contract: never throws, one `start`, exactly one `done` or `error`.
 */
import type { MessageError } from "../core/session/entries";
import { abortedError, classifyError, isRetryable } from "./classify-error";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "./types";

const DEFAULT_MAX_ATTEMPTS = 4;
const DEFAULT_BASE_DELAY_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 60_000;

export type RetryOptions = {
  /** Total tries, the first included. Default 4. */
  maxAttempts?: number;
  /** First backoff step when the provider gives no retry-after. Default 1 s; doubles per attempt. */
  baseDelayMs?: number;
  /** Cap on any single wait. A longer retry-after ends the stream with the error instead. Default 60 s. */
  maxDelayMs?: number;
  /**
   * Waits `ms`. Must settle early (resolve or reject, either is fine) when `signal` aborts;
   * the wrapper checks the signal afterwards.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). Injected by tests. */
  random?: () => number;
};

/** setTimeout that resolves early on abort. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The delay before retry number `attempt` (1 = after the first failure): the provider's
 * retry-after when given, else base·2^(attempt−1) with "equal jitter" (half fixed, half random),
 * capped at maxDelay. Returns undefined when the provider asks for more than maxDelay.
 */
export function retryDelayMs(
  attempt: number,
  error: MessageError,
  opts: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number | undefined {
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs > opts.maxDelayMs ? undefined : error.retryAfterMs;
  }
  const exp = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * opts.random());
}

/** `stream` with the retries (a tool event is content: no retry after it). */
export function withRetry(stream: StreamFn, opts: RetryOptions = {}): StreamFn {
  const maxAttempts = Math.max(1, opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const delayOpts = {
    baseDelayMs: opts.baseDelayMs ?? DEFAULT_BASE_DELAY_MS,
    maxDelayMs: opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    random: opts.random ?? Math.random,
  };
  const sleep = opts.sleep ?? abortableSleep;

  return async function* retrying(req: StreamRequest): AsyncGenerator<StreamEvent> {
    let startSent = false;
    let last: AssistantPartial = { content: [], providerId: req.provider.id, api: req.provider.api, model: req.model };

    for (let attempt = 1; ; attempt++) {
      let streamed = false;
      let failure: MessageError | undefined;

      try {
        for await (const event of stream(req)) {
          last = event.partial;
          switch (event.type) {
            case "start":
              // One start per stream, however many attempts it took.
              if (!startSent) {
                startSent = true;
                yield event;
              }
              break;
            case "text_delta":
            case "thinking_delta":
            case "toolcall_start":
            case "toolcall_delta":
            case "toolcall_end":
            case "server_tool":
              streamed = true;
              yield event;
              break;
            case "retry_wait":
              yield event;
              break;
            case "done":
              yield event;
              return;
            case "error":
              failure = event.error;
              break;
            default: {
              const never: never = event;
              throw new Error(`Unknown stream event ${JSON.stringify(never)}`);
            }
          }
          if (failure) break;
        }
      } catch (err) {
        // A StreamFn broke its contract and threw; the wrapper still ends with one event.
        failure = req.signal.aborted ? abortedError() : classifyError(err, req.provider.api);
      }

      if (!startSent) {
        startSent = true;
        yield { type: "start", partial: last };
      }
      failure ??= {
        kind: "unknown",
        message: "The provider's stream ended without a result. Try again.",
      };

      const delayMs =
        !streamed && attempt < maxAttempts && isRetryable(failure) && !req.signal.aborted
          ? retryDelayMs(attempt, failure, delayOpts)
          : undefined;
      if (delayMs === undefined) {
        yield finalError(last, failure);
        return;
      }

      // The failed attempt marked its partial "error"; the stream itself is not over yet.
      const { stopReason: _failedAttempt, ...pending } = last;
      last = pending;
      // `attempt` is the try that failed (1-based); the next one is attempt + 1 of maxAttempts.
      yield { type: "retry_wait", attempt, maxAttempts, delayMs, error: failure, partial: last };
      if (!req.signal.aborted) {
        try {
          await sleep(delayMs, req.signal);
        } catch {
          // An injected sleep may reject on abort; the signal check below decides.
        }
      }
      if (req.signal.aborted) {
        yield finalError(last, abortedError());
        return;
      }
    }
  };
}

function finalError(partial: AssistantPartial, error: MessageError): StreamEvent {
  partial.stopReason = error.kind === "aborted" ? "aborted" : "error";
  return { type: "error", partial, error };
}
