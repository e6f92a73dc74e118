/**
 * One branch summary in the worker (DESIGN §5): plan it (core/branch `prepareBranchSummary`), make
 * the one summarizer call (the remote summarizer first when set), finish it. Never throws for a
 * provider failure: it resolves `failed` with the message, or `cancelled` after an abort.
 */
import { branchSummaryEntry, finishBranchSummary } from "../core/branch/finish";
import { prepareBranchSummary } from "../core/branch/prepare";
import { asMessageError } from "../providers/classify-error";
import type { BranchSummaryJob, BranchSummaryJobOutcome, BranchSummaryProgress, SummarizeRequest } from "./api";
import { scaledCount } from "./counting";
import type { JobContext } from "./deps";
import { notify } from "./notify";
import { remoteSummaries } from "./remote-summaries";
import { summarizeText } from "./stream-text";

export async function branchSummaryJob(
  { deps, countFor }: JobContext,
  job: BranchSummaryJob,
  onProgress: (p: BranchSummaryProgress) => void,
  signal: AbortSignal,
): Promise<BranchSummaryJobOutcome> {
  const startedAt = deps.now();
  const progress = (p: BranchSummaryProgress) => notify(onProgress, p);
  const remote = remoteSummaries(job.summarizer, deps.remoteSummarize);
  try {
    progress({ phase: "preparing" });
    const count = scaledCount(await countFor(job.encoding), job.countScale);
    const prepared = prepareBranchSummary(job.abandoned, {
      contextWindow: job.summarizer.contextWindow,
      branchReserveTokens: job.branchReserveTokens,
      maxOutput: job.summarizer.maxOutput,
      countTokens: count,
      instructions: job.instructions,
      model: job.summarizer.model,
      ...(job.prompts?.["branch-summary"] !== undefined ? { prompt: job.prompts["branch-summary"] } : {}),
    });
    if (prepared.kind === "nothing_to_summarize") return prepared;
    if (prepared.kind === "too_small") return { kind: "failed", error: prepared.reason };
    if (signal.aborted) return { kind: "cancelled" };
    const { plan } = prepared;
    progress({ phase: "summarizing", text: "" });
    const req: SummarizeRequest = {
      provider: job.summarizer.provider,
      model: job.summarizer.model,
      ...plan.request,
    };
    const onText = (t: string) => progress({ phase: "summarizing", text: t });
    const text = (await remote.attempt(req, signal, onText)) ?? (await summarizeText(deps, req, onText, signal));
    if (signal.aborted) return { kind: "cancelled" };
    const finished = finishBranchSummary(text);
    if (finished.kind === "failed") return remote.withNotices(finished);
    const entry = branchSummaryEntry(plan, finished.summary, {
      durationMs: deps.now() - startedAt,
      promptVersions: job.promptVersions,
    });
    return remote.withNotices({ kind: "done", entry: { ...entry, model: remote.author() } });
  } catch (e) {
    const error = asMessageError(e, job.summarizer.provider.api);
    if (signal.aborted || error.kind === "aborted") return { kind: "cancelled" };
    return remote.withNotices({ kind: "failed", error: error.message });
  }
}
