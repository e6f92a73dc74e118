/**
 * The page's side of imports and exports: each starts a fresh transfer worker (transfer.worker.ts)
 * and terminates it when done. `startImport()` returns the import job with progress callbacks
 * proxied across; `exportInWorker()` runs one export and resolves with the file.
 *
 * Starting, the in-process fallback (vitest; production builds drop it) and dying are the worker
 * kit's (src/worker-kit). If the worker dies (out of memory on a huge file, an error, or silently:
 * terminated or crashed), pending calls resolve as errors carrying the kit's one message, not
 * hang. Nothing is half-written then: analyze writes nothing, and commit writes in one IndexedDB
 * transaction, which the browser aborts when the worker holding it goes.
 */
import * as Comlink from "comlink";
import { errorText, isMessageError } from "../../core/session/message-error";
import { type SpawnedWorker, spawnWorker, type WorkerSpec } from "../../worker-kit/spawn-worker";
import type { ExportOutcome, ExportRequest } from "./export-job";
import type { ImportJob } from "./import-job";
import type { TransferApi } from "./transfer-api";

/** The import job, run in its own worker: `dispose()` ends the worker. */
export type ImportHandle = ImportJob & { dispose(): void };

type Failure = { kind: "error"; message: string };

const TRANSFER: WorkerSpec<TransferApi> = {
  kind: "transfer",
  start: (name) => new Worker(new URL("./transfer.worker.ts", import.meta.url), { type: "module", name }),
  inProcess: import.meta.env.PROD
    ? undefined
    : async (): Promise<TransferApi> => {
        const [{ createImportJob }, { runExport }] = await Promise.all([
          import("./import-job"),
          import("./export-job"),
        ]);
        return { ...createImportJob(), runExport };
      },
};

/**
 * A failed call as the import or export's error: the worker's death or stop (the kit's
 * MessageError: its message as it is), or anything the worker threw.
 */
function failure(e: unknown): Failure {
  return { kind: "error", message: isMessageError(e) ? errorText(e) : `The background worker failed: ${errorText(e)}` };
}

const guard = <R>(call: Promise<R>): Promise<R | Failure> => call.catch(failure);

export function startImport(): ImportHandle {
  const w: SpawnedWorker<TransferApi> = spawnWorker(TRANSFER);
  return {
    analyze: (input, fileName, onProgress) => guard(w.api.analyze(input, fileName, Comlink.proxy(onProgress))),
    commit: (choice, onProgress) => guard(w.api.commit(choice, Comlink.proxy(onProgress))),
    cancel: () => {
      void w.api.cancel().catch(() => {});
    },
    dispose: w.dispose,
  };
}

/** One export in a worker of its own; resolves with the file or the reason it failed. */
export async function exportInWorker(request: ExportRequest): Promise<ExportOutcome> {
  const w = spawnWorker(TRANSFER);
  try {
    return await guard(w.api.runExport(request));
  } finally {
    w.dispose();
  }
}
