/**
 * The transfer worker's entry: one import job, or one export, per worker, exposed over comlink.
 * The page starts a worker for each (client.ts) and terminates it when done, so the memory of a
 * 100 MB parse or export goes with it.
 */
import { serveWorker } from "../../worker-kit/serve-worker";
import { runExport } from "./export-job";
import { createImportJob } from "./import-job";
import type { TransferApi } from "./transfer-api";

const api: TransferApi = { ...createImportJob(), runExport };
serveWorker(api);
