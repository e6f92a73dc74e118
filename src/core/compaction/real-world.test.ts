/**
 * The engine over real pi sessions (shared/fixtures/real-world): hundreds of tool calls, thinking,
 * aborted and failed replies, and pi's own compactions. Every compaction is checked with the same
 * guarantee checks as the property test (`checkOutcome`).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contextTokens } from "../session/context-tokens";
import type { Entry } from "../session/entries";
import { count, fakeSummarizer, options, SYSTEM, signal } from "../testing/compaction";
import { checkOutcome, type Scenario } from "../testing/compaction-property-harness";
import { piV1ToEntries } from "../testing/pi-v1-fixture";
import { runCompaction } from "./compact";
import { entryTokensFrom } from "./entry-text";
import { prepareCompaction } from "./prepare";
import { DEFAULT_COMPACTION_SETTINGS, thresholdFor } from "./settings";

const DIR = fileURLToPath(new URL("../../../../shared/fixtures/real-world/", import.meta.url));
const LARGE = `${DIR}pi-session-v1-large.jsonl`;
const WITH_COMPACTIONS = `${DIR}pi-session-v1-with-compactions.jsonl`;
const BUILD = { systemPrompt: SYSTEM, targetApi: "anthropic-messages" as const };

const summarizer = () =>
  fakeSummarizer((req, n) =>
    req.purpose === "short-summary"
      ? `Refactoring session, fold ${n}`
      : `## Standing facts & constraints\n- from call ${n}\n\n## Goal\nRefactor the coding agent.\n\n## Next steps\n- continue`,
  );

/**
 * Replays `entries` one by one and compacts whenever the context passes the threshold of a
 * `contextWindow`-token model, checking every guarantee each time. Returns the number of folds.
 */
async function replay(entries: readonly Entry[], contextWindow: number, summarizerWindow: number): Promise<number> {
  const settings = DEFAULT_COMPACTION_SETTINGS;
  const scenario: Scenario = { steps: [], settings, contextWindow, summarizerWindow };
  const threshold = thresholdFor(contextWindow, settings);
  const tokens = entryTokensFrom(count);
  let path: Entry[] = [];
  let estimate = 0;
  let folds = 0;
  for (const e of entries) {
    path.push({ ...e, parentId: path.at(-1)?.id ?? null });
    estimate += tokens(e);
    // A cheap running estimate decides when to count exactly (contextTokens per entry would be quadratic).
    if (e.type === "compaction" || estimate < threshold * 0.9) continue;
    estimate = contextTokens(path, BUILD, count);
    if (estimate <= threshold) continue;
    const prepared = prepareCompaction(path, options({ reason: "threshold", contextWindow, summarizerWindow }));
    if (prepared.kind !== "plan") continue;
    const s = summarizer();
    const outcome = await runCompaction(prepared.plan, { summarize: s.summarize, signal: signal() });
    const after = checkOutcome(
      path,
      prepared.plan,
      outcome,
      s.calls,
      s.calls.map(() => "good"),
      scenario,
    );
    if (after === null || outcome.kind !== "done") throw new Error(`compaction ${folds} did not complete`);
    expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
    path = after;
    estimate = outcome.tokensAfter;
    folds++;
  }
  return folds;
}

describe.skipIf(!existsSync(LARGE))("real pi session (large, 1,019 lines)", () => {
  const entries = piV1ToEntries(readFileSync(LARGE, "utf8"));

  it("converts with hundreds of tool calls and results", () => {
    const calls = entries.flatMap((e) => (e.type === "message" ? e.content.filter((b) => b.type === "tool_call") : []));
    expect(calls.length).toBeGreaterThan(300);
    expect(entries.filter((e) => e.type === "message" && e.role === "tool").length).toBeGreaterThan(300);
  });

  it("keeps every guarantee over successive compactions on a 32k window", async () => {
    expect(await replay(entries, 32_000, 32_000)).toBeGreaterThan(5);
  }, 60_000);

  it("keeps every guarantee with a small summarizer window (folding in windows)", async () => {
    expect(await replay(entries, 64_000, 8_000)).toBeGreaterThan(2);
  }, 60_000);
});

describe.skipIf(!existsSync(WITH_COMPACTIONS))("real pi session with pi's own compactions (2.4 MB)", () => {
  const entries = piV1ToEntries(readFileSync(WITH_COMPACTIONS, "utf8"));

  it("compacts iteratively on top of the imported compaction", async () => {
    const prepared = prepareCompaction(entries, options({ reason: "manual" }));
    if (prepared.kind !== "plan") throw new Error(JSON.stringify(prepared));
    const plan = prepared.plan;
    const previous = plan.previous;
    expect(previous?.summary.startsWith("# Context Checkpoint")).toBe(true);
    // The region starts at the imported compaction's kept region: nothing it kept is skipped.
    expect(entries[plan.start]?.id).toBe(previous?.firstKeptEntryId);
    const s = summarizer();
    const outcome = await runCompaction(plan, { summarize: s.summarize, signal: signal() });
    const scenario: Scenario = {
      steps: [],
      settings: DEFAULT_COMPACTION_SETTINGS,
      contextWindow: 200_000,
      summarizerWindow: 200_000,
    };
    expect(checkOutcome(entries, plan, outcome, s.calls, ["good", "good", "good"], scenario)).not.toBeNull();
    expect(s.calls[0]?.prompt).toContain("<previous-summary>\n# Context Checkpoint: Coding Agent Refactoring");
  });

  it("keeps every guarantee over successive compactions on a 32k window", async () => {
    expect(await replay(entries, 32_000, 16_000)).toBeGreaterThan(5);
  }, 60_000);
});
