/**
 * The transfer worker's entry: one import job, or one export, per worker, exposed over comlink.
 * The page starts a worker for each (client.ts) and terminates it when done, so the memory of a
 * 100 MB parse or export goes with it.
 */
import * as Comlink from "comlink";
import { holdLifeline } from "../../core/lifeline";
import { runExport } from "./export-job";
import { createImportJob } from "./import-job";
import type { TransferApi } from "./transfer-api";

const api: TransferApi = { ...createImportJob(), runExport };
Comlink.expose(api);
// Held until this worker ends, however it ends: the page's client notices a silent death by it.
holdLifeline(navigator.locks, self.name, (m) => (globalThis as unknown as Worker).postMessage(m));
