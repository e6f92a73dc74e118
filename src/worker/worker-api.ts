/**
 * The worker's API implementation (api.ts), as a plain object over core/ and providers/: the
 * worker exposes it with comlink (compaction.worker.ts), and client.ts runs it in-process where
 * there is no Worker (vitest, Node). Everything the world provides is injected (`WorkerDeps`,
 * deps.ts), so tests call it directly with a scripted stream and a fake clock.
 *
 * This file only assembles: counting (counting.ts), one summarizer call (stream-text.ts), the jobs
 * (compact-job.ts, branch-summary-job.ts, handoff-job.ts, each over a pure core plan) and the
 * cancellation registry (operations.ts). Adding a compaction-engine step: a job module that takes
 * plain data, gets its counter with `countFor(encoding)`, calls the pure core function and returns
 * plain data. No state lives here besides the loaded counters, a memo of counted texts and the
 * operations in flight.
 */
import { buildContext } from "../core/session/build-context";
import { countContextTokens } from "../core/session/context-tokens";
import type { ModelUsage } from "../core/session/entries";
import type { EntryId } from "../core/session/ids";
import { countEntryTokens } from "../core/tokens/entry-tokens";
import { asMessageError } from "../providers/classify-error";
import type { WorkerApi } from "./api";
import { branchSummaryJob } from "./branch-summary-job";
import { compactJob } from "./compact-job";
import { createCounting } from "./counting";
import { DEFAULT_DEPS, type JobContext, type WorkerDeps } from "./deps";
import { handoffJob } from "./handoff-job";
import { meteredStream } from "./metered-stream";
import { createOperations } from "./operations";
import { summarizeText } from "./stream-text";

/** `entry` with the usage its requests reported, when any was. */
function withSideUsage<T extends object>(
  entry: T,
  usage: readonly ModelUsage[],
): T & { sideUsage?: readonly ModelUsage[] } {
  return usage.length > 0 ? { ...entry, sideUsage: usage } : entry;
}

export function createWorkerApi(overrides: Partial<WorkerDeps> = {}): WorkerApi {
  const deps: WorkerDeps = { ...DEFAULT_DEPS, ...overrides };
  const countFor = createCounting(deps.counterFor);
  const operations = createOperations();
  /** A job's context whose stream sums the usage its requests report (`usage()` after the job). */
  const metered = () => {
    const m = meteredStream(deps.stream);
    return { context: { deps: { ...deps, stream: m.stream }, countFor } satisfies JobContext, usage: m.usage };
  };

  return {
    async countTexts(encoding, texts) {
      const count = await countFor(encoding);
      return texts.map((t) => count(t));
    },

    async countEntries(encoding, entries) {
      const count = await countFor(encoding);
      const out: Record<EntryId, number> = {};
      for (const entry of entries) out[entry.id] = countEntryTokens(entry, count);
      return out;
    },

    async contextTokens(path, opts, encoding) {
      const count = await countFor(encoding);
      return countContextTokens(buildContext(path, opts), count);
    },

    async countContext(llmContext, encoding) {
      return countContextTokens(llmContext, await countFor(encoding));
    },

    summarize: (req, onText, opId) =>
      operations.run(opId, async (signal) => {
        try {
          return await summarizeText(deps, req, onText, signal);
        } catch (e) {
          throw asMessageError(e, req.provider.api);
        }
      }),

    compact: (job, onProgress, opId) =>
      operations.run(opId, async (signal) => {
        const m = metered();
        const out = await compactJob(m.context, job, onProgress, signal);
        return out.kind === "done" ? { ...out, entry: withSideUsage(out.entry, m.usage()) } : out;
      }),

    branchSummary: (job, onProgress, opId) =>
      operations.run(opId, async (signal) => {
        const m = metered();
        const out = await branchSummaryJob(m.context, job, onProgress, signal);
        return out.kind === "done" ? { ...out, entry: withSideUsage(out.entry, m.usage()) } : out;
      }),

    handoffDocument: (job, onProgress, opId) =>
      operations.run(opId, async (signal) => {
        const m = metered();
        const out = await handoffJob(m.context, job, onProgress, signal);
        return out.kind === "document" ? withSideUsage(out, m.usage()) : out;
      }),

    cancel: async (opId) => operations.cancel(opId),
  };
}
