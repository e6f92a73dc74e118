/**
 * One compaction in the worker (DESIGN §4): plan it (core/compaction `prepareCompaction`) with the
 * job's counts, run it (`runCompaction`) with the summarizer calls made here (the remote summarizer
 * first when set), then the provider-native step when asked (native-step.ts). A summarizer failure
 * reaches the engine as a MessageError (kind `aborted` for a cancel), which it reads as `failed`
 * or `cancelled`.
 */
import { type CompactionProgress, runCompaction } from "../core/compaction/compact";
import { prepareCompaction } from "../core/compaction/prepare";
import type { EntryId } from "../core/session/ids";
import { cachedEntryTokens } from "../core/tokens/entry-tokens";
import { asMessageError } from "../providers/classify-error";
import type { CompactJob, CompactJobOutcome, SummarizeRequest } from "./api";
import { scaledCount } from "./counting";
import type { JobContext } from "./deps";
import { withNativeCompaction } from "./native-step";
import { notify } from "./notify";
import { remoteSummaries } from "./remote-summaries";
import { summarizeText } from "./stream-text";

export async function compactJob(
  { deps, countFor }: JobContext,
  job: CompactJob,
  onProgress: (p: CompactionProgress) => void,
  signal: AbortSignal,
): Promise<CompactJobOutcome> {
  const count = scaledCount(await countFor(job.encoding), job.countScale);
  // Stored counts are raw; scale them like the live counter so both agree.
  const cached = new Map(
    (Object.entries(job.entryCounts ?? {}) as Array<[EntryId, number]>).map(([id, n]) => [
      id,
      job.countScale === 1 ? n : Math.round(n * job.countScale),
    ]),
  );
  const prepared = prepareCompaction(job.path, {
    reason: job.reason,
    settings: job.settings,
    contextWindow: job.contextWindow,
    summarizerWindow: job.summarizer.contextWindow,
    summarizerMaxOutput: job.summarizer.maxOutput,
    summarizerModel: job.summarizer.model,
    countTokens: count,
    entryTokens: cachedEntryTokens(cached, count),
    systemPrompt: job.systemPrompt,
    targetApi: job.targetApi,
    instructions: job.instructions,
    upToEntryId: job.upToEntryId,
  });
  if (prepared.kind !== "plan") return prepared;
  const remote = remoteSummaries(job.summarizer, deps.remoteSummarize);
  const summarizerReq = (r: { system: string; prompt: string; maxOutputTokens: number }): SummarizeRequest => ({
    provider: job.summarizer.provider,
    model: job.summarizer.model,
    system: r.system,
    prompt: r.prompt,
    maxOutputTokens: r.maxOutputTokens,
  });
  const outcome = await runCompaction(prepared.plan, {
    signal,
    ...(job.prompts ? { prompts: job.prompts } : {}),
    ...(job.promptVersions ? { promptVersions: job.promptVersions } : {}),
    onProgress: (p) => notify(onProgress, p),
    summarize: async (r, callSignal, onText) => {
      try {
        const remoteText = await remote.attempt(r, callSignal, onText);
        if (remoteText !== null) return remoteText;
        return await summarizeText(deps, summarizerReq(r), onText ?? (() => {}), callSignal);
      } catch (e) {
        throw asMessageError(e, job.summarizer.provider.api);
      }
    },
  });
  const labelled =
    outcome.kind === "done" ? { ...outcome, entry: { ...outcome.entry, model: remote.author() } } : outcome;
  if (labelled.kind !== "done" || !job.native) return remote.withNotices(labelled);
  const native = await withNativeCompaction(job, labelled, signal, deps.compactNative, (p) => notify(onProgress, p));
  return remote.withNotices(native);
}
