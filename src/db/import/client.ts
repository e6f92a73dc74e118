/**
 * The page's side of an import: `startImport()` starts a fresh import worker and returns its job
 * (import-job.ts) with progress callbacks proxied across. `dispose()` terminates the worker; the
 * state layer calls it when the import is over, or to cancel one that has written nothing yet.
 *
 * Where there is no `Worker` (vitest), the job runs in-process; production builds drop that path.
 * If the worker dies (out of memory on a huge file), pending calls resolve as errors, not hang.
 */
import * as Comlink from "comlink";
import type { ConflictChoice, ImportAnalysis, ImportJob, ImportOutcome, ImportProgress } from "./import-job";

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

export function startImport(): ImportHandle {
  return typeof Worker === "undefined" ? startInProcess() : startWorker();
}

function startWorker(): ImportHandle {
  const worker = new Worker(new URL("./import.worker.ts", import.meta.url), { type: "module", name: "grove-import" });
  const remote = Comlink.wrap<ImportJob>(worker);
  let died: (message: string) => void = () => {};
  const death = new Promise<string>((resolve) => {
    died = resolve;
  });
  worker.addEventListener("error", (event) => {
    died(`The import stopped: ${event.message || "the background worker failed"}.`);
    worker.terminate();
  });
  const orDeath = async <R>(call: Promise<R>): Promise<R | { kind: "error"; message: string }> =>
    Promise.race([call, death.then((message) => ({ kind: "error" as const, message }))]);
  return {
    analyze: (file, fileName, onProgress) =>
      orDeath<ImportAnalysis>(remote.analyze(file, fileName, Comlink.proxy(onProgress))).catch(failure),
    commit: (choice, onProgress) =>
      orDeath<ImportOutcome>(remote.commit(choice, Comlink.proxy(onProgress))).catch(failure),
    cancel: () => {
      remote.cancel().catch(() => {});
    },
    dispose: () => {
      died("The import was stopped.");
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

const failure = (e: unknown): { kind: "error"; message: string } => ({
  kind: "error",
  message: `The import failed: ${e instanceof Error ? e.message : String(e)}`,
});

function startInProcess(): ImportHandle {
  if (import.meta.env.PROD) throw new Error("Web Workers are not available in this browser.");
  const job = import("./import-job").then((m) => m.createImportJob());
  return {
    analyze: async (file, fileName, onProgress) => (await job).analyze(file, fileName, onProgress),
    commit: async (choice, onProgress) => (await job).commit(choice, onProgress),
    cancel: () => {
      void job.then((j) => j.cancel());
    },
    dispose: () => {},
  };
}
