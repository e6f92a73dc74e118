/**
 * The fidelity bench's core, against the e2e mock server (in-process, over HTTP through
 * providers/): the same seed gives the same conversation and the same table; under the lossy
 * summarizer the floor holds (every user fact and pin word for word in the next request, the
 * per-chat prompt at the head of every chat request) while unprotected facts are lost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer } from "../../e2e/mock-server/index";
import type { MockServer } from "../../e2e/mock-server/types";
import { estimateTokens } from "../../src/core/tokens/estimate";
import { FLOOR_CLASSES, generateConversation } from "./conversation";
import { createFidelityWorld, type FidelitySettings, runFidelity } from "./run-fidelity";
import { fidelityTable, floorViolations } from "./table";
import { liveTargets, mockTargets } from "./targets";

const SETTINGS: FidelitySettings = { seed: 11, folds: [3], conversations: 1, window: 14_000 };
/** The character estimate instead of the o200k table, which takes seconds to load. */
const world = () =>
  createFidelityWorld({ counterFor: async (encoding) => ({ encoding, count: estimateTokens, exact: false }) });

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 0 } });
});
afterAll(async () => {
  await mock.close();
});

describe("fidelity bench", () => {
  it("generates the same conversation for the same seed, another for another seed", () => {
    expect(generateConversation(5, 3)).toEqual(generateConversation(5, 3));
    expect(generateConversation(6, 3).facts).not.toEqual(generateConversation(5, 3).facts);
  });

  it("same seed, same table; under the lossy summarizer the floor holds and unprotected facts are lost", async () => {
    const lossy = mockTargets(mock.anthropicBaseUrl).filter((t) => t.label === "lossy");
    const first = await runFidelity(world(), lossy, SETTINGS);
    const second = await runFidelity(world(), lossy, SETTINGS);
    expect(fidelityTable(second)).toBe(fidelityTable(first));
    expect(second).toEqual(first);

    const [run] = first;
    if (!run) throw new Error("no run");
    expect(run.foldsDone).toBe(3);
    const floor = run.facts.filter((f) => FLOOR_CLASSES.has(f.cls));
    expect(floor.length).toBeGreaterThanOrEqual(5);
    expect(floor.every((f) => f.folded && f.verbatim)).toBe(true);
    expect(floorViolations(first)).toEqual([]);
    expect(run.chatRequests).toBeGreaterThan(3);
    expect(run.systemPromptMissing).toBe(0);
    // The bench can see loss: the lossy digest keeps no tool output.
    const tool = run.facts.filter((f) => f.cls === "tool");
    expect(tool.length).toBeGreaterThan(0);
    expect(tool.some((f) => f.verbatim || f.recalled)).toBe(false);
  });

  it("the per-chat prompt heads every chat request even when the summary declares it void", async () => {
    const drops = mockTargets(mock.anthropicBaseUrl).filter((t) => t.label === "drops-system-prompt");
    const [run] = await runFidelity(world(), drops, SETTINGS);
    expect(run?.foldsDone).toBe(3);
    expect(run?.chatRequests).toBeGreaterThan(3);
    expect(run?.systemPromptMissing).toBe(0);
  });
});

describe("live targets", () => {
  it("one per key set, at the provider's own URL; a BASE_URL override is used and named in the row", () => {
    expect(liveTargets({})).toEqual([]);
    const [claude, openai] = liveTargets({
      GROVE_LIVE_ANTHROPIC_KEY: "sk-ant",
      GROVE_LIVE_OPENAI_KEY: "sk-oa",
      GROVE_LIVE_OPENAI_BASE_URL: "http://127.0.0.1:5312/openai/v1/",
      GROVE_LIVE_OPENAI_MODEL: "gpt-4o",
    });
    expect(claude?.label).toBe("claude-haiku-4-5");
    expect(claude?.chat.provider).toMatchObject({ api: "anthropic-messages", baseUrl: "https://api.anthropic.com" });
    expect(claude?.chat.provider.plainHttpOrigin).toBeUndefined();
    expect(openai?.label).toBe("gpt-4o @ 127.0.0.1:5312");
    expect(openai?.chat.provider).toMatchObject({
      api: "openai-responses",
      baseUrl: "http://127.0.0.1:5312/openai/v1",
      apiKey: "sk-oa",
      // Named in the environment: the http origin counts as confirmed, as the app's Settings asks.
      plainHttpOrigin: "http://127.0.0.1:5312",
    });
    expect(openai?.summarizer.model).toBe("gpt-4o");
  });

  it("GROVE_LIVE_OPENAI_API speaks Chat Completions for compatible servers; anything else is refused", () => {
    const [t] = liveTargets({
      GROVE_LIVE_OPENAI_KEY: "ollama",
      GROVE_LIVE_OPENAI_BASE_URL: "http://localhost:11434/v1",
      GROVE_LIVE_OPENAI_API: "openai-chat",
      GROVE_LIVE_OPENAI_MODEL: "qwen3:8b",
    });
    expect(t?.chat.provider).toMatchObject({ api: "openai-chat", id: "openai-compatible", builtIn: false });
    expect(t?.label).toBe("qwen3:8b @ localhost:11434");
    expect(() => liveTargets({ GROVE_LIVE_OPENAI_KEY: "k", GROVE_LIVE_OPENAI_API: "chat" })).toThrow(
      /GROVE_LIVE_OPENAI_API must be openai-responses or openai-chat/,
    );
  });
});
