import { describe, expect, it } from "vitest";
import type { MessageError } from "../core/session/entries";
import { createAnthropicStream } from "./anthropic";
import { createFakeFetch, jsonReply, sseEvent, sseReply } from "./testing/fake-fetch";
import { collect, last, testRequest, types } from "./testing/requests";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "./types";
import { retryDelayMs, withRetry } from "./with-retry";

const API = "anthropic-messages" as const;

const RATE_LIMIT: MessageError = { kind: "rate_limit", message: "Too many requests (429).", status: 429 };
const OVERLOADED: MessageError = {
  kind: "overloaded",
  message: "Anthropic is overloaded right now (529).",
  status: 529,
};
const OVERFLOW: MessageError = { kind: "context_overflow", message: "Too long (400).", status: 400 };
const QUOTA: MessageError = {
  kind: "quota",
  message: "Your account has run out of credit or quota (429). Check your plan and billing with the provider.",
  status: 429,
};

type Step = { text: string } | { error: MessageError } | "done";

/** A StreamFn that plays one script per call, like a provider failing then recovering. */
function scripted(attempts: Step[][]): { fn: StreamFn; calls: () => number } {
  let call = 0;
  const fn: StreamFn = (req: StreamRequest) => {
    const script = attempts[call++] ?? [];
    return (async function* (): AsyncGenerator<StreamEvent> {
      const partial: AssistantPartial = { content: [], providerId: "p", api: req.provider.api, model: req.model };
      yield { type: "start", partial };
      for (const step of script) {
        if (step === "done") {
          partial.stopReason = "end";
          yield { type: "done", partial };
        } else if ("text" in step) {
          partial.content.push({ type: "text", text: step.text });
          yield { type: "text_delta", delta: step.text, partial };
        } else {
          partial.stopReason = "error";
          yield { type: "error", partial, error: step.error };
        }
      }
    })();
  };
  return { fn, calls: () => call };
}

function recordingSleep() {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { waits, sleep };
}

describe("withRetry", () => {
  it("retries a 429 twice, honouring retry-after, then streams the reply (one start, two retry_waits)", async () => {
    const { fn, calls } = scripted([
      [{ error: { ...RATE_LIMIT, retryAfterMs: 3000 } }],
      [{ error: { ...RATE_LIMIT, retryAfterMs: 5000 } }],
      [{ text: "Hi" }, "done"],
    ]);
    const { waits, sleep } = recordingSleep();
    const events = await collect(withRetry(fn, { sleep })(testRequest(API)));

    expect(types(events)).toEqual(["start", "retry_wait", "retry_wait", "text_delta", "done"]);
    expect(events[1]).toMatchObject({ type: "retry_wait", attempt: 1, maxAttempts: 4, delayMs: 3000 });
    expect(events[2]).toMatchObject({ type: "retry_wait", attempt: 2, maxAttempts: 4, delayMs: 5000 });
    expect(events[1]?.type === "retry_wait" && events[1].error.kind).toBe("rate_limit");
    expect(events[1]?.partial).not.toHaveProperty("stopReason");
    expect(waits).toEqual([3000, 5000]);
    expect(calls()).toBe(3);
    expect(last(events).partial).toMatchObject({ content: [{ type: "text", text: "Hi" }], stopReason: "end" });
  });

  it("backs off exponentially with jitter when the provider gives no retry-after", async () => {
    const { fn } = scripted([[{ error: OVERLOADED }], [{ error: OVERLOADED }], [{ error: OVERLOADED }], ["done"]]);
    const { waits, sleep } = recordingSleep();
    await collect(withRetry(fn, { sleep, baseDelayMs: 1000, random: () => 0.5 })(testRequest(API)));
    // equal jitter: half of base·2^(n−1) fixed, plus half of it times random()
    expect(waits).toEqual([750, 1500, 3000]);
  });

  it("caps the backoff at maxDelayMs", () => {
    const opts = { baseDelayMs: 1000, maxDelayMs: 5000, random: () => 0.999 };
    expect(retryDelayMs(10, OVERLOADED, opts)).toBeLessThanOrEqual(5000);
    expect(retryDelayMs(1, { ...OVERLOADED, retryAfterMs: 4000 }, opts)).toBe(4000);
  });

  it("gives up after maxAttempts tries and ends with the last error", async () => {
    const { fn, calls } = scripted([[{ error: RATE_LIMIT }], [{ error: RATE_LIMIT }], [{ error: RATE_LIMIT }]]);
    const { waits, sleep } = recordingSleep();
    const events = await collect(withRetry(fn, { sleep, maxAttempts: 3 })(testRequest(API)));
    expect(types(events)).toEqual(["start", "retry_wait", "retry_wait", "error"]);
    expect(last(events)).toMatchObject({ error: RATE_LIMIT, partial: { stopReason: "error" } });
    expect(waits).toHaveLength(2);
    expect(calls()).toBe(3);
  });

  it("never retries a context overflow", async () => {
    const { fn, calls } = scripted([[{ error: OVERFLOW }], ["done"]]);
    const { waits, sleep } = recordingSleep();
    const events = await collect(withRetry(fn, { sleep })(testRequest(API)));
    expect(types(events)).toEqual(["start", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "context_overflow" } });
    expect(waits).toEqual([]);
    expect(calls()).toBe(1);
  });

  it.each([
    ["auth", { kind: "auth", message: "The API key was rejected (401).", status: 401 }],
    ["invalid_request", { kind: "invalid_request", message: "Rejected (400).", status: 400 }],
    ["network", { kind: "network", message: "Couldn't reach the provider." }],
    ["insufficient quota", QUOTA],
  ] as const)("never retries %s", async (_name, error) => {
    const { fn, calls } = scripted([[{ error }], ["done"]]);
    const events = await collect(withRetry(fn, { sleep: async () => {} })(testRequest(API)));
    expect(types(events)).toEqual(["start", "error"]);
    expect(calls()).toBe(1);
  });

  it("never retries an error that arrives after content was streamed", async () => {
    const { fn, calls } = scripted([
      [{ text: "Half" }, { error: OVERLOADED }],
      [{ text: "Again" }, "done"],
    ]);
    const { waits, sleep } = recordingSleep();
    const events = await collect(withRetry(fn, { sleep })(testRequest(API)));
    expect(types(events)).toEqual(["start", "text_delta", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "overloaded" }, partial: { content: [{ text: "Half" }] } });
    expect(waits).toEqual([]);
    expect(calls()).toBe(1);
  });

  it("does not wait out a retry-after longer than maxDelayMs", async () => {
    const { fn, calls } = scripted([[{ error: { ...RATE_LIMIT, retryAfterMs: 3_600_000 } }], ["done"]]);
    const events = await collect(withRetry(fn, { sleep: async () => {}, maxDelayMs: 60_000 })(testRequest(API)));
    expect(types(events)).toEqual(["start", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "rate_limit", retryAfterMs: 3_600_000 } });
    expect(calls()).toBe(1);
  });

  it("ends with an aborted error when the signal aborts during the wait", async () => {
    const controller = new AbortController();
    const { fn, calls } = scripted([[{ error: RATE_LIMIT }], ["done"]]);
    let sleeping = false;
    // Never resolves by itself: only the abort ends it (it rejects, as some sleeps do).
    const sleep = (_ms: number, signal: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        sleeping = true;
        signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")), { once: true });
      });
    const events = await collect(withRetry(fn, { sleep })(testRequest(API, { signal: controller.signal })), (e) => {
      if (e.type === "retry_wait") setTimeout(() => controller.abort(), 0);
    });
    expect(sleeping).toBe(true);
    expect(types(events)).toEqual(["start", "retry_wait", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "aborted" }, partial: { stopReason: "aborted" } });
    expect(calls()).toBe(1);
  });

  it("does not start a wait when the signal aborted as the retry was announced", async () => {
    const controller = new AbortController();
    const { fn, calls } = scripted([[{ error: RATE_LIMIT }], ["done"]]);
    const { waits, sleep } = recordingSleep();
    const events = await collect(withRetry(fn, { sleep })(testRequest(API, { signal: controller.signal })), (e) => {
      if (e.type === "retry_wait") controller.abort();
    });
    expect(types(events)).toEqual(["start", "retry_wait", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "aborted" } });
    expect(waits).toEqual([]);
    expect(calls()).toBe(1);
  });

  it("waits with the real timer, and the default sleep ends early on abort", async () => {
    const controller = new AbortController();
    const { fn } = scripted([[{ error: { ...RATE_LIMIT, retryAfterMs: 30_000 } }], ["done"]]);
    const started = Date.now();
    const events = await collect(withRetry(fn)(testRequest(API, { signal: controller.signal })), (e) => {
      if (e.type === "retry_wait") setTimeout(() => controller.abort(), 10);
    });
    // The wait asked for is 30 s: ending well before it means the abort cut the sleep short.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(last(events)).toMatchObject({ error: { kind: "aborted" } });
  });

  it("turns a StreamFn that throws (a contract breach) into one error event", async () => {
    const throwing: StreamFn = () =>
      (async function* (): AsyncGenerator<StreamEvent> {
        yield* [];
        throw new TypeError("Failed to fetch");
      })();
    const events = await collect(withRetry(throwing, { sleep: async () => {} })(testRequest(API)));
    expect(types(events)).toEqual(["start", "error"]);
    expect(last(events)).toMatchObject({ error: { kind: "network" } });
  });

  it("retries a real adapter: 429 with retry-after, then a streamed reply", async () => {
    const fake = createFakeFetch([
      jsonReply(
        429,
        {
          type: "error",
          error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit." },
        },
        { "retry-after": "2" },
      ),
      sseReply([
        sseEvent("message_start", {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            content: [],
            model: "claude-haiku-4-5",
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        }),
        sseEvent("content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: { type: "text", text: "" },
        }),
        sseEvent("content_block_delta", {
          type: "content_block_delta",
          index: 0,
          delta: { type: "text_delta", text: "Hi" },
        }),
        sseEvent("content_block_stop", { type: "content_block_stop", index: 0 }),
        sseEvent("message_delta", {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 2 },
        }),
        sseEvent("message_stop", { type: "message_stop" }),
      ]),
    ]);
    const { waits, sleep } = recordingSleep();
    const events = await collect(withRetry(createAnthropicStream({ fetch: fake.fetch }), { sleep })(testRequest(API)));
    expect(types(events)).toEqual(["start", "retry_wait", "text_delta", "done"]);
    expect(waits).toEqual([2000]);
    expect(fake.requests).toHaveLength(2);
    expect(last(events).partial).toMatchObject({
      content: [{ type: "text", text: "Hi" }],
      usage: { input: 10, output: 2 },
    });
  });
});
