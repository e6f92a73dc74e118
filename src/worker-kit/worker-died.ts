/**
 * The one failure of a worker that is gone: every call it had not answered rejects with a
 * `WorkerDied`, whichever worker it was and however it died. It is a MessageError (kind `unknown`),
 * so the usual failure paths (core's `errorText`, the maintenance dialogs, the import dialog, the
 * sync status) word it with no special case; `isWorkerDied` tells it apart where that matters.
 */
import type { MessageError } from "../core/session/entries";
import { isMessageError } from "../core/session/message-error";

/** The four workers (DESIGN §1): each names its lifeline, its test kill hook and its failures. */
export type WorkerKind = "compaction" | "search" | "sync" | "transfer";

/**
 * How the page learnt of it: its lifeline lock was granted (terminate(), a crash, an out-of-memory
 * kill: no event at all), an `error` event (its script failed to load, or an uncaught error), or a
 * `messageerror` (a reply that could not be read: its call would wait forever).
 */
export type WorkerDeath = "lifeline" | "error" | "messageerror";

export type WorkerDied = MessageError & { kind: "unknown"; worker: WorkerKind; death: WorkerDeath };

/** What the user reads when a worker stopped under an operation (the same for all four). */
export const WORKER_DIED =
  "The background worker stopped unexpectedly (it may have run out of memory). Nothing was left half-done; try again.";

/** `detail`: the `error` event's message, when it has one. */
export function workerDied(worker: WorkerKind, death: WorkerDeath, detail?: string): WorkerDied {
  const message = death === "error" ? `The background worker stopped: ${detail || "it failed to load"}.` : WORKER_DIED;
  return { kind: "unknown", message, worker, death };
}

export function isWorkerDied(e: unknown): e is WorkerDied {
  return isMessageError(e) && typeof (e as Partial<WorkerDied>).worker === "string";
}

/** What the calls of a worker ended on purpose (`dispose()`) reject with: not a death, a stop. */
export function workerStopped(): MessageError {
  return { kind: "aborted", message: "The background worker was stopped." };
}
