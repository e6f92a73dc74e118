/**
 * The worker's API implementation (api.ts), as a plain object over core/ and providers/: the
 * worker exposes it with comlink (compaction.worker.ts), and client.ts runs it in-process where
 * there is no Worker (vitest, Node). Everything the world provides is injected (`WorkerDeps`), so
 * tests call it directly with a scripted stream and a fake clock.
 *
 * Adding a compaction-engine step: a method that takes plain data, gets its counter with
 * `counter(encoding)`, calls the pure core function (e.g. a future `prepareCompaction`) and returns
 * plain data; the state layer composes it with `summarize`. No state lives here besides the
 * loaded counters, a memo of counted texts and the operations in flight.
 */
import { branchSummaryEntry, finishBranchSummary } from "../core/branch/finish";
import { prepareBranchSummary } from "../core/branch/prepare";
import { runCompaction } from "../core/compaction/compact";
import { prepareCompaction } from "../core/compaction/prepare";
import { finishHandoff } from "../core/handoff/finish";
import { prepareHandoff } from "../core/handoff/prepare";
import { buildContext } from "../core/session/build-context";
import type { LlmContext } from "../core/session/context";
import { type CountText, countContextTokens } from "../core/session/context-tokens";
import { type ApiKind, assertNever, type MessageError } from "../core/session/entries";
import type { EntryId } from "../core/session/ids";
import { counterFor } from "../core/tokens/counter-for";
import { cachedEntryTokens, countEntryTokens } from "../core/tokens/entry-tokens";
import type { TokenEncoding } from "../core/tokens/models";
import type { TokenCounter } from "../core/tokens/tokenizer";
import { abortedError, classifyError, StreamEndedError } from "../providers/classify-error";
import { type CompactNativeFn, compactNative } from "../providers/native-compaction";
import { stream as registryStream } from "../providers/registry";
import { callRemoteSummarizer, remoteSummarizerSet } from "../providers/remote-summarizer";
import type { StreamFn, StreamRequest } from "../providers/types";
import type {
  BranchSummaryProgress,
  HandoffDocumentProgress,
  JobNotices,
  OpId,
  SummarizeRequest,
  SummarizerSpec,
  WorkerApi,
} from "./api";
import { withNativeCompaction } from "./native-step";

/** How often `summarize` forwards the growing text, at most (ms): each call copies the whole text. */
export const SUMMARY_PROGRESS_INTERVAL_MS = 100;

/** Texts at least this long are memoized (shorter ones cost less to count than to look up). */
export const COUNT_MEMO_MIN_CHARS = 256;
/** Total characters of memoized texts per encoding; the least recently used go first. */
export const COUNT_MEMO_MAX_CHARS = 8_000_000;

export type WorkerDeps = {
  /** Provider streams; default: providers/registry.ts `stream` (retries included). */
  stream: StreamFn;
  /** The counter for an encoding; default: core/tokens `counterFor` (loads ranks on first use). */
  counterFor: (encoding: TokenEncoding) => Promise<TokenCounter>;
  /** Milliseconds clock for throttling progress; default `performance.now`. */
  now: () => number;
  progressIntervalMs: number;
  /** The remote summarizer call; default: providers/remote-summarizer.ts `callRemoteSummarizer`. */
  remoteSummarize: typeof callRemoteSummarizer;
  /** Provider-native compaction calls; default: providers/native-compaction.ts. */
  compactNative: CompactNativeFn;
};

const DEFAULT_DEPS: WorkerDeps = {
  stream: registryStream,
  counterFor: (encoding) => counterFor({ encoding }),
  now: () => performance.now(),
  progressIntervalMs: SUMMARY_PROGRESS_INTERVAL_MS,
  remoteSummarize: callRemoteSummarizer,
  compactNative,
};

/**
 * `count` with a least-recently-used memo of long texts: the meter recounts the same context after
 * every reply, and all but its newest messages are unchanged.
 */
function memoized(count: CountText): CountText {
  const memo = new Map<string, number>();
  let chars = 0;
  return (text) => {
    if (text.length < COUNT_MEMO_MIN_CHARS) return count(text);
    const hit = memo.get(text);
    if (hit !== undefined) {
      memo.delete(text); // re-insert: Map order is the recency order
      memo.set(text, hit);
      return hit;
    }
    const n = count(text);
    memo.set(text, n);
    chars += text.length;
    for (const [old] of memo) {
      if (chars <= COUNT_MEMO_MAX_CHARS) break;
      memo.delete(old);
      chars -= old.length;
    }
    return n;
  };
}

/** Calls a progress callback, which must not throw; if it does (or its message fails), it is ignored. */
function notify<T>(onText: (value: T) => void, text: T): void {
  try {
    const result: unknown = onText(text);
    // Through comlink the call is a message and returns a promise; nothing waits for it.
    if (result instanceof Promise) result.catch(() => {});
  } catch {
    // The summary does not fail because a progress display did.
  }
}

/** A MessageError as thrown by `summarize`: what the stream said, else a classified exception. */
function asMessageError(e: unknown, api: ApiKind): MessageError {
  if (typeof e === "object" && e !== null && "kind" in e && "message" in e) return e as MessageError;
  return classifyError(e, api);
}

/** `count` scaled by the Claude calibration ratio (1 = unchanged), as the meter counts. */
function scaledCount(count: CountText, scale: number): CountText {
  return scale === 1 ? count : (text) => Math.round(count(text) * scale);
}

export function createWorkerApi(overrides: Partial<WorkerDeps> = {}): WorkerApi {
  const deps: WorkerDeps = { ...DEFAULT_DEPS, ...overrides };
  const counts = new Map<TokenEncoding, Promise<CountText>>();
  const running = new Map<OpId, AbortController>();

  /** The memoized count function for `encoding` (one per encoding, loaded once). */
  function countFor(encoding: TokenEncoding): Promise<CountText> {
    let p = counts.get(encoding);
    if (!p) {
      p = deps.counterFor(encoding).then((counter) => memoized((text) => counter.count(text)));
      p.catch(() => counts.delete(encoding));
      counts.set(encoding, p);
    }
    return p;
  }

  /** Registers an abortable operation under `opId` (before any await, so a later cancel finds it). */
  function register(opId: OpId | undefined): AbortController {
    const controller = new AbortController();
    if (opId !== undefined) {
      if (running.has(opId)) {
        const inUse: MessageError = { kind: "invalid_request", message: `Operation ${opId} is already running.` };
        throw inUse;
      }
      running.set(opId, controller);
    }
    return controller;
  }
  function release(opId: OpId | undefined, controller: AbortController): void {
    if (opId !== undefined && running.get(opId) === controller) running.delete(opId);
  }

  async function runSummary(
    req: SummarizeRequest,
    onText: (text: string) => void,
    signal: AbortSignal,
  ): Promise<string> {
    return runContext(
      {
        provider: req.provider,
        model: req.model,
        context: { system: req.system, messages: [{ role: "user", content: [{ type: "text", text: req.prompt }] }] },
        maxOutputTokens: req.maxOutputTokens,
        thinking: { kind: "off" },
        signal,
      },
      onText,
    );
  }

  /** Streams one request (any context) and resolves with its text; thinking deltas are ignored. */
  async function runContext(request: StreamRequest, onText: (text: string) => void): Promise<string> {
    const { signal } = request;
    // Settles only on abort: raced against every step, so a cancel ends the call at once even if
    // the provider stream is slow to notice the aborted request.
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => reject(abortedError());
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    aborted.catch(() => {});

    const events = deps.stream(request)[Symbol.asyncIterator]();
    let text = "";
    let sent = "";
    let sentAt = Number.NEGATIVE_INFINITY;
    const flush = () => {
      if (text === sent) return;
      sent = text;
      sentAt = deps.now();
      notify(onText, text);
    };
    try {
      for (;;) {
        const step = await Promise.race([events.next(), aborted]);
        if (step.done) throw new StreamEndedError("The summarizer stream ended without a final event.");
        const event = step.value;
        switch (event.type) {
          case "text_delta":
            text += event.delta;
            if (deps.now() - sentAt >= deps.progressIntervalMs) flush();
            break;
          case "done":
            flush();
            return text;
          case "error":
            throw event.error;
          case "start":
          case "thinking_delta":
          case "retry_wait":
            break;
          default:
            assertNever(event, "stream event");
        }
      }
    } finally {
      // Stop the provider stream if we left early (cancel, contract violation); never awaited.
      Promise.resolve(events.return?.()).catch(() => {});
    }
  }

  /**
   * One job's summaries through the remote summarizer, when one is set: `attempt` returns its
   * summary, or null when the model must write it (not set, or it failed: then the rest of the job
   * uses the model too, and the user is told once). An abort is rethrown, never a fallback.
   */
  function remoteSummaries(spec: SummarizerSpec) {
    const notices: string[] = [];
    let failed = false;
    let wrote = 0;
    return {
      async attempt(
        r: { system: string; prompt: string },
        signal: AbortSignal,
        onText: ((text: string) => void) | undefined,
      ): Promise<string | null> {
        if (!remoteSummarizerSet(spec.remote) || failed) return null;
        try {
          const summary = await deps.remoteSummarize(spec.remote, { systemPrompt: r.system, prompt: r.prompt }, signal);
          if (onText) notify(onText, summary);
          wrote += 1;
          return summary;
        } catch (e) {
          if (signal.aborted) throw abortedError();
          failed = true;
          const reason = e instanceof Error ? e.message : String(e);
          notices.push(`Remote summarizer failed: ${reason.replace(/\.$/, "")}; used ${spec.model} instead.`);
          return null;
        }
      },
      withNotices<T extends object>(outcome: T): T & JobNotices {
        return notices.length > 0 ? { ...outcome, notices: [...notices] } : outcome;
      },
      /**
       * The entry's `model` (who wrote it, shown on the card): the remote summarizer when it wrote
       * every summary of the job, else the model.
       */
      author(): string {
        if (wrote === 0 || failed || !spec.remote) return spec.model;
        return `remote summarizer (${new URL(spec.remote.url.trim()).host})`;
      },
    };
  }

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

    async countContext(context: LlmContext, encoding) {
      return countContextTokens(context, await countFor(encoding));
    },

    async summarize(req, onText, opId) {
      const controller = register(opId);
      try {
        return await runSummary(req, onText, controller.signal);
      } catch (e) {
        throw asMessageError(e, req.provider.api);
      } finally {
        release(opId, controller);
      }
    },

    async compact(job, onProgress, opId) {
      const controller = register(opId);
      try {
        const raw = await countFor(job.encoding);
        const count: CountText = job.countScale === 1 ? raw : (text) => Math.round(raw(text) * job.countScale);
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
        const remote = remoteSummaries(job.summarizer);
        const summarizerReq = (r: { system: string; prompt: string; maxOutputTokens: number }): SummarizeRequest => ({
          provider: job.summarizer.provider,
          model: job.summarizer.model,
          system: r.system,
          prompt: r.prompt,
          maxOutputTokens: r.maxOutputTokens,
        });
        const outcome = await runCompaction(prepared.plan, {
          signal: controller.signal,
          ...(job.prompts ? { prompts: job.prompts } : {}),
          ...(job.promptVersions ? { promptVersions: job.promptVersions } : {}),
          onProgress: (p) => notify(onProgress as (p: unknown) => void, p),
          summarize: async (r, signal, onText) => {
            try {
              const remoteText = await remote.attempt(r, signal, onText);
              if (remoteText !== null) return remoteText;
              return await runSummary(summarizerReq(r), onText ?? (() => {}), signal);
            } catch (e) {
              const error = asMessageError(e, job.summarizer.provider.api);
              // The engine reports an Error's message; an abort must read as one.
              throw Object.assign(new Error(error.message), {
                name: error.kind === "aborted" ? "AbortError" : "SummarizerError",
              });
            }
          },
        });
        const labelled =
          outcome.kind === "done" ? { ...outcome, entry: { ...outcome.entry, model: remote.author() } } : outcome;
        if (labelled.kind !== "done" || !job.native) return remote.withNotices(labelled);
        const native = await withNativeCompaction(job, labelled, controller.signal, deps.compactNative, (p) =>
          notify(onProgress as (p: unknown) => void, p),
        );
        return remote.withNotices(native);
      } finally {
        release(opId, controller);
      }
    },

    async branchSummary(job, onProgress, opId) {
      const controller = register(opId);
      const { signal } = controller;
      const startedAt = deps.now();
      const progress = (p: BranchSummaryProgress) => notify(onProgress as (p: BranchSummaryProgress) => void, p);
      const remote = remoteSummaries(job.summarizer);
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
        const text = (await remote.attempt(req, signal, onText)) ?? (await runSummary(req, onText, signal));
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
      } finally {
        release(opId, controller);
      }
    },

    async handoffDocument(job, onProgress, opId) {
      const controller = register(opId);
      const { signal } = controller;
      const progress = (p: HandoffDocumentProgress) => notify(onProgress as (p: HandoffDocumentProgress) => void, p);
      try {
        progress({ phase: "preparing" });
        const count = scaledCount(await countFor(job.encoding), job.countScale);
        const prepared = prepareHandoff(job.path, {
          ...(job.prompt !== undefined ? { prompt: job.prompt } : {}),
          systemPrompt: job.systemPrompt,
          targetApi: job.provider.api,
          focus: job.focus,
          contextWindow: job.contextWindow,
          maxOutput: job.maxOutput,
          reserveTokens: job.reserveTokens,
          countTokens: count,
        });
        if (prepared.kind === "nothing_to_hand_off") return prepared;
        if (prepared.kind === "too_long") return { kind: "too_long", reason: prepared.reason };
        if (signal.aborted) return { kind: "cancelled" };
        const { plan } = prepared;
        progress({ phase: "writing", text: "" });
        const text = await runContext(
          {
            provider: job.provider,
            model: job.model,
            context: plan.request.context,
            maxOutputTokens: plan.request.maxOutputTokens,
            thinking: job.thinking,
            signal,
          },
          (t) => progress({ phase: "writing", text: t }),
        );
        if (signal.aborted) return { kind: "cancelled" };
        const finished = finishHandoff(text);
        return finished.kind === "document"
          ? { kind: "document", document: finished.document, fromEntryId: plan.fromEntryId }
          : { kind: "empty", fromEntryId: plan.fromEntryId };
      } catch (e) {
        const error = asMessageError(e, job.provider.api);
        if (signal.aborted || error.kind === "aborted") return { kind: "cancelled" };
        return { kind: "failed", error: error.message };
      } finally {
        release(opId, controller);
      }
    },

    async cancel(opId) {
      const controller = running.get(opId);
      if (!controller) return false;
      running.delete(opId);
      controller.abort();
      return true;
    },
  };
}
