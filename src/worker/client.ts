/**
 * The main-thread side of the compaction worker, for state/: `getWorker()` (one lazily started
 * module worker, wrapped with comlink) and `summarizeInWorker`, which takes an AbortSignal and
 * turns it into the worker's op-id cancellation.
 *
 * Where there is no `Worker` (vitest, Node), the same implementation runs in-process, so state
 * tests exercise the real API. Production builds never take that path and drop it (it is behind
 * `import.meta.env.PROD`), so the main bundle holds no tokenizer code and no rank files.
 *
 * Cancellation: comlink can't carry an AbortSignal. `summarizeInWorker` names the call with a
 * fresh op id, passes it to `summarize`, and on abort sends `cancel(opId)`; the worker aborts the
 * provider request and `summarize` rejects with an `aborted` MessageError. Messages to a worker
 * arrive in order, so a cancel always finds the call it follows.
 *
 * If the worker dies (its script fails to load, an uncaught error, an unreadable reply, or silently:
 * terminated, crashed, killed for memory — seen through its lifeline lock, core/lifeline.ts), every
 * pending call rejects with a MessageError (WORKER_DIED) instead of hanging, and the next
 * `getWorker()` starts a new one. A worker that is only busy is never taken for dead: there is no
 * deadline, and the user can still cancel.
 */
import * as Comlink from "comlink";
import type { CompactionProgress } from "../core/compaction/compact";
import { isLifelineHeld, lifelineName, TEST_HOOKS_FLAG, watchLifeline } from "../core/lifeline";
import type { MessageError } from "../core/session/entries";
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

type Handle = { api: WorkerApi; terminate: () => void };

let current: Handle | null = null;

/**
 * The worker's API. A `Comlink.Remote<WorkerApi>` underneath (typed as `WorkerApi`, which the
 * remote satisfies: every method already returns a promise), guarded against a dead worker.
 * Callbacks passed to it must be wrapped with `Comlink.proxy` (`summarizeInWorker` does that).
 */
export function getWorker(): WorkerApi {
  if (!current) current = typeof Worker === "undefined" ? startInProcess() : startWorker();
  return current.api;
}

/** Stops the worker (a later `getWorker()` starts a fresh one). For tests and hot reload. */
export function terminateWorker(): void {
  current?.terminate();
  current = null;
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

/** An API object whose calls wait for `target`, and reject with `failed` if it settles first. */
function forwarding(target: Promise<WorkerApi>, failed: Promise<never>): WorkerApi {
  const call = async <R>(f: (api: WorkerApi) => Promise<R>): Promise<R> => Promise.race([target.then(f), failed]);
  return {
    countTexts: (encoding, texts) => call((w) => w.countTexts(encoding, texts)),
    countEntries: (encoding, entries) => call((w) => w.countEntries(encoding, entries)),
    contextTokens: (path, opts, encoding) => call((w) => w.contextTokens(path, opts, encoding)),
    countContext: (context, encoding) => call((w) => w.countContext(context, encoding)),
    summarize: (req, onText, opId) => call((w) => w.summarize(req, onText, opId)),
    compact: (job, onProgress, opId) => call((w) => w.compact(job, onProgress, opId)),
    branchSummary: (job, onProgress, opId) => call((w) => w.branchSummary(job, onProgress, opId)),
    handoffDocument: (job, onProgress, opId) => call((w) => w.handoffDocument(job, onProgress, opId)),
    cancel: (opId) => call((w) => w.cancel(opId)),
  };
}

/** What a call in flight rejects with when the worker dies under it; the next call starts a new worker. */
export const WORKER_DIED =
  "The background worker stopped unexpectedly (it may have run out of memory). Nothing was saved; try again.";

function startWorker(): Handle {
  const name = lifelineName("compaction");
  const worker = new Worker(new URL("./compaction.worker.ts", import.meta.url), { type: "module", name });
  const remote: WorkerApi = Comlink.wrap<WorkerApi>(worker);
  let fail: (error: MessageError) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  const die = (message: string) => {
    fail({ kind: "unknown", message });
    lifeline.stop();
    worker.terminate();
    if (current === handle) current = null;
  };
  // terminate(), a crash or an out-of-memory kill fire no event: the lifeline lock tells (core/lifeline.ts).
  const lifeline = watchLifeline(locks, () => die(WORKER_DIED));
  const handle: Handle = {
    // Promise.resolve does not unwrap the remote: its `then` is not a function (comlink sees to it).
    api: forwarding(Promise.resolve(remote), failed),
    terminate: () => {
      lifeline.stop();
      fail({ kind: "aborted", message: "The background worker was stopped." });
      worker.terminate();
    },
  };
  worker.addEventListener("message", (event) => {
    if (isLifelineHeld(event.data)) lifeline.held(event.data.groveLifelineHeld);
  });
  worker.addEventListener("error", (event) => {
    die(`The background worker stopped: ${event.message || "it failed to load"}`);
  });
  // A reply that could not be read leaves its call waiting forever: as good as dead.
  worker.addEventListener("messageerror", () => die(WORKER_DIED));
  exposeKillForTests(() => worker.terminate());
  return handle;
}

/**
 * With the test-hooks flag set (e2e only), `window.groveKillCompactionWorker()` ends the worker
 * as a crash would: terminate() fires nothing, so only the lifeline can notice.
 */
function exposeKillForTests(kill: () => void): void {
  try {
    if (globalThis.localStorage?.getItem(TEST_HOOKS_FLAG) !== "1") return;
  } catch {
    return; // storage blocked
  }
  (globalThis as { groveKillCompactionWorker?: () => void }).groveKillCompactionWorker = kill;
}

function startInProcess(): Handle {
  // Never in a production build (browsers have Worker); the condition lets the bundler drop the
  // dynamic import below, so the implementation is not emitted as a main-bundle chunk.
  if (import.meta.env.PROD) throw new Error("Web Workers are not available in this browser.");
  const failed = new Promise<never>(() => {});
  return {
    api: forwarding(
      import("./worker-api").then((m) => m.createWorkerApi()),
      failed,
    ),
    terminate: () => {},
  };
}
