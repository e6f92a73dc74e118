import { describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_CONTEXT, BRANCH_SUMMARY_PREAMBLE } from "../prompts";
import { a, linkPath, u } from "../testing/entries";
import { estimateTokens } from "../tokens/estimate";
import { branchSummaryEntry, finishBranchSummary, hasProse } from "./finish";
import { type BranchSummaryPlan, prepareBranchSummary } from "./prepare";

const SUMMARY = "## Goal\nMake the build pass.\n\n## Progress\n- Done: fixed the import.";

describe("finishBranchSummary", () => {
  it("puts the short preamble (the user explored another branch and came back) before the summary", () => {
    const done = finishBranchSummary(`\n${SUMMARY}\n\n`);
    expect(done).toEqual({ kind: "summary", summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${SUMMARY}` });
    expect(BRANCH_SUMMARY_PREAMBLE).toMatch(/branch/i);
    expect(BRANCH_SUMMARY_PREAMBLE).toMatch(/came back/i);
  });

  it("fails on empty or junk output (nothing is written then)", () => {
    for (const junk of [
      "",
      "   \n\n",
      "---",
      "## Goal\n## Progress\n",
      "```\n```",
      "<branch_summary></branch_summary>",
    ]) {
      expect(finishBranchSummary(junk)).toMatchObject({ kind: "failed" });
    }
  });

  it("removes an echoed preamble, echoed framing, our tags and a lead-in line", () => {
    const contextIntro = BRANCH_SUMMARY_CONTEXT.split("\n\n")[0] ?? "";
    const echoed = `Here is the summary:\n\n${BRANCH_SUMMARY_PREAMBLE}\n\n${contextIntro}\n\n<branch_summary>\n${SUMMARY}\n</branch_summary>`;
    const done = finishBranchSummary(echoed);
    expect(done).toEqual({ kind: "summary", summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${SUMMARY}` });
  });

  it("keeps ordinary prose that happens to end a line with a colon", () => {
    const text = "The user compared two options:\n- A\n- B";
    expect(finishBranchSummary(text)).toEqual({ kind: "summary", summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${text}` });
  });
});

describe("hasProse", () => {
  it("needs a letter or digit outside headings, in any script", () => {
    expect(hasProse("## Goal")).toBe(false);
    expect(hasProse("- 42")).toBe(true);
    expect(hasProse("目标：完成")).toBe(true);
  });
});

describe("branchSummaryEntry", () => {
  const plan = (instructions?: string): BranchSummaryPlan => {
    const r = prepareBranchSummary(linkPath([u("q", "question"), a("r", "answer")]), {
      contextWindow: 200_000,
      countTokens: estimateTokens,
      model: "haiku",
      instructions,
    });
    if (r.kind !== "plan") throw new Error("expected a plan");
    return r.plan;
  };

  it("records fromId = the old leaf, the model, and what was summarized", () => {
    const entry = branchSummaryEntry(plan(), "S", { durationMs: 12 });
    expect(entry).toMatchObject({
      type: "branch_summary",
      fromId: "r",
      summary: "S",
      model: "haiku",
      details: { kind: "grove-branch-summary", includedEntries: 2, omittedEntries: 0, durationMs: 12 },
    });
    expect("instructions" in entry).toBe(false);
  });

  it("records the custom instructions when there were some", () => {
    expect(branchSummaryEntry(plan("Only errors"), "S").instructions).toBe("Only errors");
  });
});
