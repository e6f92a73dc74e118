/**
 * Branch summaries' public surface (DESIGN §5), for the worker and the state layer:
 * `planSwitch` / `collectAbandoned` say where a switch lands and what it leaves behind,
 * `prepareBranchSummary` plans the one summarizer request, `finishBranchSummary` turns its output
 * into the stored summary (or a failure), `branchSummaryEntry` builds the entry to append.
 * Pure: no I/O anywhere in this folder.
 */
export type { AbandonedBranch, SwitchPlan } from "./collect";
export { collectAbandoned, hasSummarizableContent, planSwitch } from "./collect";
export type {
  BranchSummaryDetails,
  BranchSummaryFinish,
  BranchSummaryOutcome,
  NewBranchSummaryEntry,
} from "./finish";
export { branchSummaryEntry, finishBranchSummary, hasProse } from "./finish";
export type {
  BranchSummaryOptions,
  BranchSummaryPlan,
  BranchSummaryPrepareResult,
  BranchSummaryRequest,
} from "./prepare";
export {
  BRANCH_SUMMARY_OUTPUT_TOKENS,
  branchInputBudget,
  branchOutputBudget,
  branchSummaryPrompt,
  prepareBranchSummary,
} from "./prepare";
