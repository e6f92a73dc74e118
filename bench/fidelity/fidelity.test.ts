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
import { mockTargets } from "./targets";

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
