/**
 * The e2e tests' way to end a worker as a crash would: with localStorage `grove.testHooks` = "1",
 * `window.groveKill<Kind>Worker()` (groveKillCompactionWorker, groveKillSearchWorker,
 * groveKillSyncWorker, groveKillTransferWorker) terminates the latest worker of that kind.
 * terminate() fires no event on the page, so only its lifeline can tell. Absent otherwise.
 */
import type { WorkerKind } from "./worker-died";

/** localStorage key that, set to "1", exposes the kill hooks. */
export const TEST_HOOKS_FLAG = "grove.testHooks";

/** The window function that kills the latest worker of `kind`. */
export function killHookName(kind: WorkerKind): string {
  return `groveKill${kind.charAt(0).toUpperCase()}${kind.slice(1)}Worker`;
}

/** Whether this page runs with the test hooks (e2e tests and benches only). */
function testHooksEnabled(): boolean {
  try {
    return globalThis.localStorage?.getItem(TEST_HOOKS_FLAG) === "1";
  } catch {
    return false; // storage blocked
  }
}

/** Puts `hooks` on the window when the test hooks are on; nothing otherwise. */
export function exposeForTests(hooks: Record<string, unknown>): void {
  if (testHooksEnabled()) Object.assign(globalThis, hooks);
}

export function exposeKillForTests(kind: WorkerKind, kill: () => void): void {
  exposeForTests({ [killHookName(kind)]: kill });
}
