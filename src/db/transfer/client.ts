/**
 * The page's side of imports and exports: each starts a fresh transfer worker (transfer.worker.ts)
 * and terminates it when done. `startImport()` returns the import job with progress callbacks
 * proxied across; `exportInWorker()` runs one export and resolves with the file.
 *
 * Where there is no `Worker` (vitest), the same code runs in-process; production builds drop that
 * path. If the worker dies (out of memory on a huge file, an error, or silently: terminated or
 * crashed, seen through its lifeline lock, core/lifeline.ts), pending calls resolve as errors, not
 * hang. Nothing is half-written then: analyze writes nothing, and commit writes in one IndexedDB
 * transaction, which the browser aborts when the worker holding it goes.
 */
import * as Comlink from "comlink";
import { isLifelineHeld, lifelineName, TEST_HOOKS_FLAG, watchLifeline } from "../../core/lifeline";
import type { ExportOutcome, ExportRequest } from "./export-job";
import type { ImportAnalysis, ImportJob, ImportOutcome } from "./import-job";
import type { TransferApi } from "./transfer-api";

export type { ExportedFile, ExportFormat, ExportOutcome, ExportRequest } from "./export-job";
export type {
  ConflictChoice,
  ImportAnalysis,
  ImportedSessionSummary,
  ImportOutcome,
  ImportProgress,
} from "./import-job";

/** The import job, run in its own worker: `dispose()` ends the worker. */
export type ImportHandle = ImportJob & { dispose(): void };

type Failure = { kind: "error"; message: string };

/** A transfer worker (or the in-process stand-in), with calls that resolve as errors if it dies. */
type Started = {
  api: Promise<TransferApi>;
  guard: <R>(call: Promise<R>) => Promise<R | Failure>;
  dispose: () => void;
};

/**
 * What an import or export reports when its worker dies under it. Nothing was written (see the
 * module doc); the import dialog says so under the message.
 */
export const TRANSFER_WORKER_DIED =
  "The background worker stopped unexpectedly (it may have run out of memory); try again.";

function start(): Started {
  if (typeof Worker === "undefined") return startInProcess();
  const name = lifelineName("transfer");
  const worker = new Worker(new URL("./transfer.worker.ts", import.meta.url), { type: "module", name });
  const remote = Comlink.wrap<TransferApi>(worker);
  let died: (message: string) => void = () => {};
  const death = new Promise<Failure>((resolve) => {
    died = (message) => resolve({ kind: "error", message });
  });
  const die = (message: string) => {
    died(message);
    lifeline.stop();
    worker.terminate();
  };
  // terminate(), a crash or an out-of-memory kill fire no event: the lifeline lock tells (core/lifeline.ts).
  const lifeline = watchLifeline(typeof navigator === "undefined" ? undefined : navigator.locks, () =>
    die(TRANSFER_WORKER_DIED),
  );
  worker.addEventListener("message", (event) => {
    if (isLifelineHeld(event.data)) lifeline.held(event.data.groveLifelineHeld);
  });
  worker.addEventListener("error", (event) => {
    die(`The background worker stopped: ${event.message || "it failed"}.`);
  });
  // A reply that could not be read leaves its call waiting forever: as good as dead.
  worker.addEventListener("messageerror", () => die(TRANSFER_WORKER_DIED));
  exposeKillForTests(() => worker.terminate());
  return {
    // Promise.resolve does not unwrap the remote: its `then` is not a function (comlink sees to it).
    api: Promise.resolve(remote as unknown as TransferApi),
    guard: (call) => Promise.race([call, death]).catch(failure),
    dispose: () => {
      lifeline.stop();
      died("The background worker was stopped.");
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/**
 * With the test-hooks flag set (e2e only), `window.groveKillTransferWorker()` ends the running
 * import's or export's worker as a crash would: terminate() fires nothing.
 */
function exposeKillForTests(kill: () => void): void {
  try {
    if (globalThis.localStorage?.getItem(TEST_HOOKS_FLAG) !== "1") return;
  } catch {
    return; // storage blocked
  }
  (globalThis as { groveKillTransferWorker?: () => void }).groveKillTransferWorker = kill;
}

function startInProcess(): Started {
  // Never in a production build (browsers have Worker); the condition lets the bundler drop the
  // dynamic imports, so the job code is not emitted as a main-bundle chunk.
  if (import.meta.env.PROD) throw new Error("Web Workers are not available in this browser.");
  const api = Promise.all([import("./import-job"), import("./export-job")]).then(
    ([i, e]): TransferApi => ({ ...i.createImportJob(), runExport: e.runExport }),
  );
  return { api, guard: (call) => call.catch(failure), dispose: () => {} };
}

const failure = (e: unknown): Failure => ({
  kind: "error",
  message: `The background worker failed: ${e instanceof Error ? e.message : String(e)}`,
});

/** A function crossing to the worker must be a comlink proxy; in-process it is passed as is. */
const callback = <F extends (...args: never[]) => unknown>(f: F): F =>
  typeof Worker === "undefined" ? f : Comlink.proxy(f);

export function startImport(): ImportHandle {
  const w = start();
  return {
    analyze: (input, fileName, onProgress) =>
      w.guard<ImportAnalysis>(w.api.then((api) => api.analyze(input, fileName, callback(onProgress)))),
    commit: (choice, onProgress) =>
      w.guard<ImportOutcome>(w.api.then((api) => api.commit(choice, callback(onProgress)))),
    cancel: () => {
      void w.api.then((api) => api.cancel()).catch(() => {});
    },
    dispose: w.dispose,
  };
}

/** One export in a worker of its own; resolves with the file or the reason it failed. */
export async function exportInWorker(request: ExportRequest): Promise<ExportOutcome> {
  const w = start();
  try {
    return await w.guard<ExportOutcome>(w.api.then((api) => api.runExport(request)));
  } finally {
    w.dispose();
  }
}
