/** Test support: worker jobs as the state layer sends them, with a Claude Haiku summarizer. */
import { a, linkPath, u } from "../../core/testing/entries";
import type { RemoteSummarizerConfig } from "../../providers/remote-summarizer";
import { testProvider } from "../../providers/testing/requests";
import type { BranchSummaryJob } from "../api";

/**
 * A branch-summary job for an abandoned two-message branch (the approach that timed out);
 * `remote` routes the summary to a remote summarizer; `over` replaces any field.
 */
export function branchSummaryJob(
  over: Partial<BranchSummaryJob> = {},
  remote?: RemoteSummarizerConfig,
): BranchSummaryJob {
  return {
    abandoned: linkPath([u("q", "Try approach A"), a("r", "Approach A failed with a timeout.")]),
    branchReserveTokens: 16_384,
    encoding: "claude",
    countScale: 1,
    summarizer: {
      provider: testProvider("anthropic-messages"),
      model: "claude-haiku-4-5",
      contextWindow: 200_000,
      maxOutput: 64_000,
      ...(remote ? { remote } : {}),
    },
    ...over,
  };
}
