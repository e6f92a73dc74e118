/**
 * The page's side of imports and exports: each starts a fresh transfer worker (transfer.worker.ts)
 * and terminates it when done. `startImport()` returns the import job with progress callbacks
 * proxied across; `exportInWorker()` runs one export and resolves with the file.
 *
 * Where there is no `Worker` (vitest), the same code runs in-process; production builds drop that
 * path. If the worker dies (out of memory on a huge file), pending calls resolve as errors, not hang.
 */
import * as Comlink from "comlink";
import type { ExportOutcome, ExportRequest } from "./export-job";
import type { ConflictChoice, ImportAnalysis, ImportOutcome, ImportProgress } from "./import-job";
import type { TransferApi } from "./transfer-api";

export type { ExportedFile, ExportFormat, ExportOutcome, ExportRequest } from "./export-job";
export type {
  ConflictChoice,
  ImportAnalysis,
  ImportedSessionSummary,
  ImportOutcome,
  ImportProgress,
} from "./import-job";

export type ImportHandle = {
  analyze(file: Blob, fileName: string, onProgress: (p: ImportProgress) => void): Promise<ImportAnalysis>;
  commit(choice: ConflictChoice, onProgress: (p: ImportProgress) => void): Promise<ImportOutcome>;
  cancel(): void;
  dispose(): void;
};

type Failure = { kind: "error"; message: string };

/** A transfer worker (or the in-process stand-in), with calls that resolve as errors if it dies. */
type Started = {
  api: Promise<TransferApi>;
  guard: <R>(call: Promise<R>) => Promise<R | Failure>;
  dispose: () => void;
};

function start(): Started {
  if (typeof Worker === "undefined") return startInProcess();
  const worker = new Worker(new URL("./transfer.worker.ts", import.meta.url), {
    type: "module",
    name: "grove-transfer",
  });
  const remote = Comlink.wrap<TransferApi>(worker);
  let died: (message: string) => void = () => {};
  const death = new Promise<Failure>((resolve) => {
    died = (message) => resolve({ kind: "error", message });
  });
  worker.addEventListener("error", (event) => {
    died(`The background worker stopped: ${event.message || "it failed"}.`);
    worker.terminate();
  });
  return {
    // Promise.resolve does not unwrap the remote: its `then` is not a function (comlink sees to it).
    api: Promise.resolve(remote as unknown as TransferApi),
    guard: (call) => Promise.race([call, death]).catch(failure),
    dispose: () => {
      died("The background worker was stopped.");
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
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
    analyze: (file, fileName, onProgress) =>
      w.guard<ImportAnalysis>(w.api.then((api) => api.analyze(file, fileName, callback(onProgress)))),
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
