/**
 * The main-thread side of the compaction worker, for state/: `getWorker()` (one lazily started
 * module worker, wrapped with comlink) and `summarizeInWorker`, which takes an AbortSignal and
 * turns it into the worker's op-id cancellation.
 *
 * Starting, the in-process fallback (vitest, Node: the same implementation runs in-process, so
 * state tests exercise the real API; production builds drop it) and dying are the worker kit's
 * (src/worker-kit): if the worker dies, every pending call rejects with the kit's `WorkerDied`
 * (a MessageError, WORKER_DIED) instead of hanging, and the next `getWorker()` starts a new one.
 * A worker that is only busy is never taken for dead: there is no deadline, and the user can
 * still cancel.
 *
 * Cancellation: comlink can't carry an AbortSignal. `summarizeInWorker` names the call with a
 * fresh op id, passes it to `summarize`, and on abort sends `cancel(opId)`; the worker aborts the
 * provider request and `summarize` rejects with an `aborted` MessageError. Messages to a worker
 * arrive in order, so a cancel always finds the call it follows.
 */
import * as Comlink from "comlink";
import type { CompactionProgress } from "../core/compaction/compact";
import type { MessageError } from "../core/session/entries";
import { workerSlot } from "../worker-kit/worker-slot";
import type {
  BranchSummaryJob,
  BranchSummaryJobOutcome,
  BranchSummaryProgress,
  CompactJob,
  CompactJobOutcome,
  HandoffDocumentProgress,
  HandoffJob,
  HandoffJobOutcome,
  OpId,
  SummarizeRequest,
  WorkerApi,
} from "./api";

export type {
  BranchSummaryJob,
  BranchSummaryJobOutcome,
  BranchSummaryProgress,
  CompactJob,
  CompactJobOutcome,
  HandoffDocumentProgress,
  HandoffJob,
  HandoffJobOutcome,
  OpId,
  SummarizeRequest,
  WorkerApi,
} from "./api";

const compaction = workerSlot<WorkerApi>({
  kind: "compaction",
  start: (name) => new Worker(new URL("./compaction.worker.ts", import.meta.url), { type: "module", name }),
  inProcess: import.meta.env.PROD ? undefined : () => import("./worker-api").then((m) => m.createWorkerApi()),
});

/**
 * The running worker's API (the same object while it lives), guarded against its death: its
 * calls reject with the kit's `WorkerDied` once it is gone. Every method already returns a
 * promise, so the guarded API is a `WorkerApi`. Callbacks passed to it must be wrapped with
 * `Comlink.proxy` (`summarizeInWorker` does that).
 */
export function getWorker(): WorkerApi {
  return compaction.get().api;
}

/** Stops the worker (a later `getWorker()` starts a fresh one). For tests and hot reload. */
export function terminateWorker(): void {
  compaction.dispose();
}

let lastOpId = 0;

/** A fresh op id (unique per page: ids are only compared within one worker). */
export function newOpId(): OpId {
  lastOpId += 1;
  return `op-${lastOpId}`;
}

export type SummarizeOptions = {
  /** Receives the whole text so far (throttled). Must not throw. */
  onText?: (text: string) => void;
  /** Aborting it cancels the call: the provider request is aborted, the promise rejects (`aborted`). */
  signal?: AbortSignal;
};

const aborted = (): MessageError => ({ kind: "aborted", message: "Stopped." });

/** One summarizer call in the worker; rejects with a MessageError (`aborted` once `signal` aborts). */
export async function summarizeInWorker(req: SummarizeRequest, opts: SummarizeOptions = {}): Promise<string> {
  const text = await cancellable<string | null>(
    opts,
    (worker, opId) => worker.summarize(req, Comlink.proxy(opts.onText ?? (() => {})), opId),
    null, // aborted before it started
  );
  if (text === null) throw aborted();
  return text;
}

export type CompactOptions = {
  onProgress?: (p: CompactionProgress) => void;
  /** Aborting it cancels the compaction: the summarizer request is aborted, the outcome is `cancelled`. */
  signal?: AbortSignal;
  /** The API to call; default `getWorker()`. */
  worker?: WorkerApi;
};

/** One compaction in the worker (prepare + summarize + count). Resolves with the outcome. */
export function compactInWorker(job: CompactJob, opts: CompactOptions = {}): Promise<CompactJobOutcome> {
  return cancellable(opts, (worker, opId) => worker.compact(job, Comlink.proxy(opts.onProgress ?? (() => {})), opId), {
    kind: "cancelled",
  });
}

export type MaintenanceCallOptions<P> = {
  onProgress?: (p: P) => void;
  /** Aborting it cancels the operation: its request is aborted, the outcome is `cancelled`. */
  signal?: AbortSignal;
  /** The API to call; default `getWorker()`. Tests pass `createWorkerApi({ stream })` here. */
  worker?: WorkerApi;
};

/**
 * Runs `call` with a fresh op id, sending `cancel(opId)` when `signal` aborts (the operation then
 * resolves `cancelled`). Already aborted: `cancelled` without calling.
 */
async function cancellable<R>(
  opts: { signal?: AbortSignal; worker?: WorkerApi },
  call: (worker: WorkerApi, opId: OpId) => Promise<R>,
  cancelled: R,
): Promise<R> {
  const { signal } = opts;
  if (signal?.aborted) return cancelled;
  const worker = opts.worker ?? getWorker();
  const opId = newOpId();
  const onAbort = () => {
    worker.cancel(opId).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await call(worker, opId);
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** One branch summary in the worker (prepare + summarize + finish). Resolves with the outcome. */
export function branchSummaryInWorker(
  job: BranchSummaryJob,
  opts: MaintenanceCallOptions<BranchSummaryProgress> = {},
): Promise<BranchSummaryJobOutcome> {
  return cancellable(
    opts,
    (worker, opId) => worker.branchSummary(job, Comlink.proxy(opts.onProgress ?? (() => {})), opId),
    { kind: "cancelled" },
  );
}

/** One handoff document in the worker (the live context + the handoff message). Resolves with the outcome. */
export function handoffInWorker(
  job: HandoffJob,
  opts: MaintenanceCallOptions<HandoffDocumentProgress> = {},
): Promise<HandoffJobOutcome> {
  return cancellable(
    opts,
    (worker, opId) => worker.handoffDocument(job, Comlink.proxy(opts.onProgress ?? (() => {})), opId),
    { kind: "cancelled" },
  );
}
