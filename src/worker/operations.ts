/**
 * The cancellation registry. An AbortSignal can't cross to a worker: the caller names a call with
 * an op id, the call registers an AbortController under it before its first await, and
 * `cancel(opId)` aborts it. Messages to a worker arrive in order, so a cancel always finds the call
 * it follows.
 */
import type { MessageError } from "../core/session/entries";
import type { OpId } from "./api";

export type Operations = {
  /**
   * Runs `body` with the signal `cancel(opId)` aborts. Registers synchronously (at the call), and
   * rejects (invalid_request) when `opId` is already running. No op id: a signal nothing aborts.
   */
  run<R>(opId: OpId | undefined, body: (signal: AbortSignal) => Promise<R>): Promise<R>;
  /** Aborts the operation under `opId`; false if it had finished or never started. */
  cancel(opId: OpId): boolean;
};

export function createOperations(): Operations {
  const running = new Map<OpId, AbortController>();
  return {
    async run(opId, body) {
      const controller = new AbortController();
      if (opId !== undefined) {
        if (running.has(opId)) {
          const inUse: MessageError = { kind: "invalid_request", message: `Operation ${opId} is already running.` };
          throw inUse;
        }
        running.set(opId, controller);
      }
      try {
        return await body(controller.signal);
      } finally {
        if (opId !== undefined && running.get(opId) === controller) running.delete(opId);
      }
    },
    cancel(opId) {
      const controller = running.get(opId);
      if (!controller) return false;
      running.delete(opId);
      controller.abort();
      return true;
    },
  };
}
