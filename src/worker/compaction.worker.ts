/**
 * The compaction worker's entry (DESIGN §4): exposes the API (worker-api.ts) over comlink. Token
 * counting and summarizer calls run here, off the UI thread. Started by client.ts as a module
 * worker; Vite bundles it, with the rank files as chunks of their own, loaded on first count.
 */
import * as Comlink from "comlink";
import { serveWorker } from "../worker-kit/serve-worker";
import type { WorkerApi } from "./api";
import { createWorkerApi } from "./worker-api";

const api = createWorkerApi();

/**
 * Frees the MessagePort behind a comlink-proxied callback as soon as the call it served is over,
 * rather than whenever the garbage collector gets to it.
 */
function releaseCallback(callback: object): void {
  const release: unknown = (callback as { [Comlink.releaseProxy]?: unknown })[Comlink.releaseProxy];
  if (typeof release === "function") release.call(callback);
}

const exposed: WorkerApi = {
  ...api,
  summarize: (req, onText, opId) => api.summarize(req, onText, opId).finally(() => releaseCallback(onText)),
  branchSummary: (job, onProgress, opId) =>
    api.branchSummary(job, onProgress, opId).finally(() => releaseCallback(onProgress)),
  handoffDocument: (job, onProgress, opId) =>
    api.handoffDocument(job, onProgress, opId).finally(() => releaseCallback(onProgress)),
};

serveWorker(exposed);
