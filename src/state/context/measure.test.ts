/**
 * measureContext: Anthropic's count when the exact counter has one (exact, no "≈"), else the local
 * count (the worker, in-process here), which for Claude is always an estimate.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { a, linkPath, u } from "../../core/testing/entries";
import { resolveModel } from "../../core/tokens/models";
import { testProvider } from "../../providers/testing/requests";
import type { ChatTarget } from "../models/chat-target";
import type { ExactCounter } from "./exact-count";
import { measureContext } from "./measure";

// The real worker client (in-process here), watched: which measures start the compaction worker.
const workerCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock("../../worker/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../worker/client")>();
  return {
    ...actual,
    getWorker: () => {
      workerCalls.n += 1;
      return actual.getWorker();
    },
  };
});
beforeEach(() => {
  workerCalls.n = 0;
});

const path = linkPath([u("u1", "Hello there"), a("a1", "General Kenobi.")]);
const claude: ChatTarget = {
  provider: testProvider("anthropic-messages"),
  modelId: "claude-sonnet-4-5",
  model: resolveModel("claude-sonnet-4-5", {}, "anthropic-messages"),
  api: "anthropic-messages",
  systemPrompt: "",
  calibration: { ratio: 1, reported: 300, local: 300, samples: 3 },
};
const counter = (answer: number | null, waits: number[] = []): ExactCounter => ({
  exactTokens: async (_p, _t, waitMs) => {
    waits.push(waitMs);
    return answer;
  },
});

describe("measureContext", () => {
  it("is Anthropic's count when there is one, within the caller's bound", async () => {
    const waits: number[] = [];
    expect(await measureContext(path, claude, 250, counter(4242, waits))).toEqual({
      tokens: 4242,
      exact: true,
      countedBy: "anthropic",
    });
    expect(waits).toEqual([250]);
  });

  it("falls back to the calibrated local estimate, never called exact", async () => {
    const m = await measureContext(path, claude, 250, counter(null));
    expect(m.exact).toBe(false);
    expect(m.countedBy).toBeUndefined();
    expect(m.calibrated).toBe(true);
    expect(m.tokens).toBeGreaterThan(0);
  }, 20_000);

  it("as the meter measures (fallback), asks the worker only when Anthropic's count is not had", async () => {
    expect(await measureContext(path, claude, 250, counter(4242), undefined, "fallback")).toMatchObject({
      tokens: 4242,
      countedBy: "anthropic",
    });
    expect(workerCalls.n).toBe(0);
    const m = await measureContext(path, claude, 250, counter(null), undefined, "fallback");
    expect(m).toMatchObject({ exact: false, calibrated: true });
    expect(workerCalls.n).toBe(1);
  }, 20_000);

  it("as a send measures (parallel), asks the worker beside Anthropic", async () => {
    await measureContext(path, claude, 250, counter(4242));
    expect(workerCalls.n).toBe(1);
  }, 20_000);
});
