/**
 * The provider-native step of a compaction (issue 10): Grove's summary is made first (so every
 * other provider, the meter and the graph have it), then the folded part — the path up to the new
 * kept region, built for the chat's provider, its own earlier native material included — goes to
 * the provider's compaction call. Success keeps the material on the entry (`preserveData`,
 * `compactedBy`); any failure other than a cancel keeps Grove's summary and says why
 * (`nativeFallback`), so the card can tell the user.
 */
import type { CompactionOutcome, CompactionProgress } from "../core/compaction/compact";
import { buildContext } from "../core/session/build-context";
import type { CompactionPreserveData } from "../core/session/entries";
import { errorText } from "../core/session/message-error";
import type { CompactNativeFn } from "../providers/native-compaction";
import type { CompactJob } from "./api";

type Done = Extract<CompactionOutcome, { kind: "done" }>;

export async function withNativeCompaction(
  job: CompactJob,
  outcome: Done,
  signal: AbortSignal,
  compactNative: CompactNativeFn,
  onProgress: (p: CompactionProgress) => void = () => {},
): Promise<CompactionOutcome> {
  const native = job.native;
  if (!native) return outcome;
  onProgress({ phase: "native", method: native.method });
  const firstKept = outcome.entry.firstKeptEntryId;
  const keptAt = firstKept === null ? -1 : job.path.findIndex((e) => e.id === firstKept);
  const folded = keptAt >= 0 ? job.path.slice(0, keptAt) : job.path;
  const context = buildContext(folded, {
    systemPrompt: job.systemPrompt,
    targetApi: native.provider.api,
    targetProviderId: native.provider.id,
  });
  try {
    const result = await compactNative({
      method: native.method,
      provider: native.provider,
      model: native.model,
      context,
      ...(job.instructions ? { instructions: job.instructions } : {}),
      maxOutputTokens: native.maxOutput,
      signal,
    });
    if (signal.aborted) return { kind: "cancelled" };
    const preserveData: CompactionPreserveData =
      result.method === "openai"
        ? { openaiRemoteCompaction: result.openaiRemoteCompaction }
        : { anthropicCompaction: result.anthropicCompaction };
    return { ...outcome, entry: { ...outcome.entry, compactedBy: result.method, preserveData } };
  } catch (e) {
    if (signal.aborted) return { kind: "cancelled" };
    const why = errorText(e);
    return { ...outcome, entry: { ...outcome.entry, compactedBy: "grove", nativeFallback: why } };
  }
}
