/**
 * The exact counter: one count per request (cached by its hash, the least recently used leaving
 * first), the estimate (null) for other apis, failures and slow counts, and no new ask of a failed
 * endpoint during the backoff. The counting call is injected (no network).
 */
import { describe, expect, it } from "vitest";
import type { ApiKind } from "../../core/session/entries";
import { a, linkPath, u } from "../../core/testing/entries";
import { resolveModel } from "../../core/tokens/models";
import type { CountTokensFn, CountTokensRequest, CountTokensResult } from "../../providers/count-tokens";
import { testProvider } from "../../providers/testing/requests";
import type { ChatTarget } from "../models/chat-target";
import { createExactCounter, EXACT_COUNT_CACHE_SIZE, FAILURE_BACKOFF_MS } from "./exact-count";

function target(api: ApiKind = "anthropic-messages", apiKey = "sk-ant-test"): ChatTarget {
  return {
    provider: testProvider(api, { apiKey }),
    modelId: "claude-sonnet-4-5",
    model: resolveModel("claude-sonnet-4-5", {}, api),
    api,
    systemPrompt: "Be terse.",
    calibration: null,
  };
}

const path = (text: string) => linkPath([u("u1", text), a("a1", "An answer.")]);

function counting(answer: (req: CountTokensRequest) => CountTokensResult | Promise<CountTokensResult>) {
  const asked: CountTokensRequest[] = [];
  const count: CountTokensFn = async (req) => {
    asked.push(req);
    return answer(req);
  };
  return { count, asked };
}

describe("exact counter", () => {
  it("counts the request once and answers from the cache after", async () => {
    const { count, asked } = counting(() => ({ ok: true, inputTokens: 1234 }));
    const counter = createExactCounter({ count });
    expect(await counter.exactTokens(path("Hello"), target(), 1000)).toBe(1234);
    expect(await counter.exactTokens(path("Hello"), target(), 1000)).toBe(1234);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.context.system).toBe("Be terse.");
    expect(JSON.stringify(asked[0]?.context.messages)).toContain("Hello");
    // Another context is another request.
    expect(await counter.exactTokens(path("Hello again"), target(), 1000)).toBe(1234);
    expect(asked).toHaveLength(2);
  });

  it("keeps at most EXACT_COUNT_CACHE_SIZE requests, the least recently used leaving first", async () => {
    const { count, asked } = counting(() => ({ ok: true, inputTokens: 5 }));
    const counter = createExactCounter({ count });
    for (let i = 0; i <= EXACT_COUNT_CACHE_SIZE; i++) await counter.exactTokens(path(`m${i}`), target(), 1000);
    expect(asked).toHaveLength(EXACT_COUNT_CACHE_SIZE + 1);
    await counter.exactTokens(path(`m${EXACT_COUNT_CACHE_SIZE}`), target(), 1000);
    expect(asked).toHaveLength(EXACT_COUNT_CACHE_SIZE + 1);
    await counter.exactTokens(path("m0"), target(), 1000);
    expect(asked).toHaveLength(EXACT_COUNT_CACHE_SIZE + 2);
  });

  it("is null (the estimate) for other apis and without a key, asking nothing", async () => {
    const { count, asked } = counting(() => ({ ok: true, inputTokens: 1 }));
    const counter = createExactCounter({ count });
    expect(await counter.exactTokens(path("x"), target("openai-responses"), 1000)).toBeNull();
    expect(await counter.exactTokens(path("x"), target("anthropic-messages", ""), 1000)).toBeNull();
    expect(asked).toHaveLength(0);
  });

  it("falls back on failure and does not ask that endpoint again during the backoff", async () => {
    let clock = 0;
    const { count, asked } = counting(() => ({ ok: false, reason: "failed", message: "404" }));
    const counter = createExactCounter({ count, now: () => clock });
    expect(await counter.exactTokens(path("x"), target(), 1000)).toBeNull();
    expect(await counter.exactTokens(path("y"), target(), 1000)).toBeNull();
    expect(asked).toHaveLength(1);
    clock += FAILURE_BACKOFF_MS + 1;
    expect(await counter.exactTokens(path("y"), target(), 1000)).toBeNull();
    expect(asked).toHaveLength(2);
  });

  it("a count slower than the wait bound is null now and cached when it lands", async () => {
    let land: (r: CountTokensResult) => void = () => {};
    const { count, asked } = counting(() => new Promise<CountTokensResult>((resolve) => (land = resolve)));
    const counter = createExactCounter({ count });
    expect(await counter.exactTokens(path("slow"), target(), 0)).toBeNull();
    land({ ok: true, inputTokens: 99 });
    await expect.poll(() => counter.exactTokens(path("slow"), target(), 0)).toBe(99);
    expect(asked).toHaveLength(1);
  });
});
