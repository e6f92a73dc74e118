import { describe, expect, it } from "vitest";
import { serializeEntry } from "../compaction/serialize";
import { BRANCH_SUMMARY, BRANCH_SUMMARY_SYSTEM } from "../prompts";
import type { Entry } from "../session/entries";
import { a, branchSummary, compaction, linkPath, u } from "../testing/entries";
import { estimateTokens } from "../tokens/estimate";
import {
  BRANCH_ENTRY_CUT_MARKER,
  BRANCH_SUMMARY_OUTPUT_TOKENS,
  type BranchSummaryOptions,
  type BranchSummaryPlan,
  type BranchSummaryPrepareResult,
  branchInputBudget,
  branchOutputBudget,
  prepareBranchSummary,
} from "./prepare";

const count = estimateTokens;

const opts = (over: Partial<BranchSummaryOptions> = {}): BranchSummaryOptions => ({
  contextWindow: 200_000,
  countTokens: count,
  model: "test-summarizer",
  ...over,
});

function planOf(r: BranchSummaryPrepareResult): BranchSummaryPlan {
  if (r.kind !== "plan") throw new Error(`expected a plan, got ${JSON.stringify(r)}`);
  return r.plan;
}

/** The transcript body between the <conversation> tags of the prompt. */
function transcript(plan: BranchSummaryPlan): string {
  const m = /<conversation>\n([\s\S]*)\n<\/conversation>/.exec(plan.request.prompt);
  if (!m) throw new Error("no conversation in the prompt");
  return m[1] ?? "";
}

/** `n` alternating user/assistant messages of ~`tokens` tokens each, with a findable marker. */
function longBranch(n: number, tokens: number): Entry[] {
  const filler = (i: number) => `msg-${i}-marker ${"x".repeat(tokens * 4 - 20)}`;
  return linkPath(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? u(`m${i}`, filler(i)) : a(`m${i}`, filler(i)))));
}

describe("prepareBranchSummary: newest first within the budget", () => {
  // A small window makes the budget bite: window − reserve (capped at half the window).
  const small = { contextWindow: 24_000, branchReserveTokens: 16_384 };

  it("keeps the NEWEST entries, lists them oldest first, and says how many were left out", () => {
    const branch = longBranch(200, 100); // ~20,000 tokens, far over the budget
    const plan = planOf(prepareBranchSummary(branch, opts(small)));
    const body = transcript(plan);
    const present = branch.map((_, i) => body.includes(`msg-${i}-marker `));

    // A suffix of the branch: everything from some index on, nothing before it.
    const first = present.indexOf(true);
    expect(first).toBeGreaterThan(0);
    expect(present.slice(first).every(Boolean)).toBe(true);
    expect(present.slice(0, first).some(Boolean)).toBe(false);
    expect(plan.includedEntries).toBe(200 - first);
    expect(plan.omittedEntries).toBe(first);
    // Chronological order in the transcript.
    expect(body.indexOf(`msg-${first}-marker`)).toBeLessThan(body.indexOf("msg-199-marker"));
    // Within the budget, and the next older entry would not have fit.
    expect(plan.transcriptTokens).toBeLessThanOrEqual(plan.budgetTokens);
    const nextOlder = serializeEntry(branch[first - 1]!);
    expect(plan.transcriptTokens + count("\n\n") + count(nextOlder)).toBeGreaterThan(plan.budgetTokens);
    expect(plan.request.prompt).toContain(`its ${first} oldest entries are left out`);
    expect(plan.fromId).toBe("m199");
  });

  it("budget = window − branch reserve (16,384 by default) when the window is large", () => {
    const budget = branchInputBudget({
      contextWindow: 200_000,
      branchReserveTokens: 16_384,
      outputTokens: BRANCH_SUMMARY_OUTPUT_TOKENS,
      instructions: null,
      countTokens: count,
    });
    expect(budget).toBe(200_000 - 16_384);
    const plan = planOf(prepareBranchSummary(longBranch(4, 10), opts()));
    expect(plan.budgetTokens).toBe(200_000 - 16_384);
    expect(plan.omittedEntries).toBe(0);
    expect(plan.request.prompt).not.toContain("oldest entries are left out");
  });

  it("caps the reserve at half of a small window, so a local model still gets a budget", () => {
    const budget = branchInputBudget({
      contextWindow: 8_192,
      branchReserveTokens: 16_384,
      outputTokens: branchOutputBudget(8_192),
      instructions: null,
      countTokens: count,
    });
    expect(budget).toBe(4_096);
  });

  it("counts compaction and branch-summary entries as content", () => {
    const huge = "S".repeat(44_000); // ~11,000 tokens
    const old = "o".repeat(4_000); // ~1,000 tokens each
    const branch = linkPath([
      u("old", `the oldest question ${old}`),
      a("old-a", `the oldest answer ${old}`),
      branchSummary("bs", huge),
      u("q", "newest question"),
      a("r", "newest answer"),
    ]);
    const plan = planOf(prepareBranchSummary(branch, opts({ contextWindow: 24_000, branchReserveTokens: 16_384 })));
    expect(plan.budgetTokens).toBe(12_000);
    const body = transcript(plan);
    expect(body).toContain("[Branch summary]");
    expect(body).toContain("newest answer");
    // The summary took the room: the oldest messages are left out, not the summary.
    expect(body).not.toContain("the oldest question");
    expect(plan.omittedEntries).toBe(2);
  });

  it("renders a compaction on the branch and leaves out what it had already folded", () => {
    const branch = linkPath([
      u("f1", "folded question"),
      a("f2", "folded answer"),
      u("k1", "kept question"),
      a("k2", "kept answer"),
      compaction("c", { summary: "## Goal\nThe compacted goal.", firstKept: "k1" }),
      u("n1", "after the compaction"),
      a("n2", "last reply"),
    ]);
    const plan = planOf(prepareBranchSummary(branch, opts()));
    const body = transcript(plan);
    expect(body).toContain("[Compaction summary]\n## Goal\nThe compacted goal.");
    expect(body).toContain("kept question");
    expect(body).toContain("last reply");
    expect(body).not.toContain("folded question");
    expect(plan.coveredEntries).toBe(2);
    expect(plan.omittedEntries).toBe(0);
    expect(plan.request.prompt).not.toContain("oldest entries are left out");
  });

  it("a compaction whose kept region starts above the branch covers nothing on it", () => {
    const branch = linkPath([
      u("b1", "on the branch"),
      compaction("c", { summary: "Summary.", firstKept: "somewhere-above" }),
      u("b2", "after"),
    ]);
    const plan = planOf(prepareBranchSummary(branch, opts()));
    expect(transcript(plan)).toContain("on the branch");
    expect(plan.coveredEntries).toBe(0);
  });

  it("keeps the beginning of a newest entry that alone exceeds the budget", () => {
    const branch = linkPath([u("q", "question"), a("r", `START ${"y".repeat(200_000)} END`)]);
    const plan = planOf(prepareBranchSummary(branch, opts({ contextWindow: 24_000 })));
    const body = transcript(plan);
    expect(body.startsWith("[Assistant]\nSTART")).toBe(true);
    expect(body).toContain(BRANCH_ENTRY_CUT_MARKER);
    expect(body).not.toContain("END");
    expect(plan.transcriptTokens).toBeLessThanOrEqual(plan.budgetTokens);
    expect(plan.omittedEntries).toBe(1);
  });
});

describe("prepareBranchSummary: the request", () => {
  const branch = linkPath([u("q", "Try approach A"), a("r", "Approach A failed: timeout")]);

  it("uses the default prompt (Goal, Constraints, Progress, Decisions, Next steps) and the branch system prompt", () => {
    const plan = planOf(prepareBranchSummary(branch, opts()));
    expect(plan.request.system).toBe(BRANCH_SUMMARY_SYSTEM);
    for (const heading of ["## Goal", "## Constraints", "## Progress", "## Key decisions", "## Next steps"]) {
      expect(plan.request.prompt).toContain(heading);
    }
    expect(plan.request.prompt).toContain("<conversation>\n[User]\nTry approach A\n\n[Assistant]\nApproach A failed");
    expect(plan.instructions).toBeNull();
    expect(plan.model).toBe("test-summarizer");
  });

  it("custom instructions REPLACE the default prompt", () => {
    const plan = planOf(prepareBranchSummary(branch, opts({ instructions: "  Only list the errors.  " })));
    expect(plan.request.prompt).toContain("<instructions>\nOnly list the errors.\n</instructions>");
    expect(plan.request.prompt).not.toContain("## Goal");
    const defaultSpec = BRANCH_SUMMARY.split("\n\n").find((p) => p.startsWith("Write the summary")) ?? "";
    expect(defaultSpec).not.toBe("");
    expect(plan.request.prompt).not.toContain(defaultSpec);
    expect(plan.instructions).toBe("Only list the errors.");
    // The guard against continuing the branch stays.
    expect(plan.request.system).toBe(BRANCH_SUMMARY_SYSTEM);
  });

  it("asks for at most 2,048 tokens, less when the summarizer's output limit or window is smaller", () => {
    expect(planOf(prepareBranchSummary(branch, opts())).request.maxOutputTokens).toBe(2_048);
    expect(planOf(prepareBranchSummary(branch, opts({ maxOutput: 1_000 }))).request.maxOutputTokens).toBe(1_000);
    expect(branchOutputBudget(4_000)).toBe(1_000);
  });

  it("records the whole branch's size from the entry counts", () => {
    const plan = planOf(prepareBranchSummary(branch, opts({ entryTokens: () => 7 })));
    expect(plan.branchTokens).toBe(14);
  });

  it("has nothing to summarize for an empty branch or one the model never saw", () => {
    expect(prepareBranchSummary([], opts()).kind).toBe("nothing_to_summarize");
    const failed = linkPath([a("x", [], { status: "error", error: { kind: "network", message: "down" } })]);
    expect(prepareBranchSummary(failed, opts()).kind).toBe("nothing_to_summarize");
  });

  it("refuses a window too small to summarize in", () => {
    expect(prepareBranchSummary(branch, opts({ contextWindow: 800 })).kind).toBe("too_small");
  });
});
