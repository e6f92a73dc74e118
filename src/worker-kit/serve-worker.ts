/**
 * A worker entry's side of the kit (every `*.worker.ts` calls it once): exposes the API over
 * comlink and holds the worker's lifeline (lifeline.ts) until it ends, however it ends, so the
 * page notices a silent death.
 */
import * as Comlink from "comlink";
import { holdLifeline } from "./lifeline";

export function serveWorker(api: object): void {
  Comlink.expose(api);
  // The lock is named by the page (spawn-worker.ts gives it as the worker's name).
  holdLifeline(navigator.locks, self.name, (m) => (globalThis as unknown as Worker).postMessage(m));
}
