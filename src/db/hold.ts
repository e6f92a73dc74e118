/**
 * A gate that background work waits at while something the user is waiting for runs (a message
 * being sent and answered): the search index's building, the open chat's whole-tree read.
 */

/**
 * Longest a hold keeps work waiting (ms): a send that never says it is done (a tab frozen
 * mid-reply, a bug) must not stop the work for good.
 */
const HOLD_MAX_MS = 15_000;

export type Hold = {
  /** Closes the gate (true) or opens it (false). A closed gate opens by itself after its longest hold. */
  set(held: boolean): void;
  /** Resolves at once while the gate is open, else when it opens. */
  passed(): Promise<void>;
};

export function createHold(maxMs: number = HOLD_MAX_MS): Hold {
  let held: Promise<void> | null = null;
  let release: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const set = (on: boolean) => {
    if (on && !held) {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      timer = setTimeout(() => set(false), maxMs);
    } else if (!on && held) {
      clearTimeout(timer);
      held = null;
      release?.();
      release = null;
    }
  };
  const passed = async () => {
    // Closed again while it was waking: wait for the new hold too.
    while (held) await held;
  };
  return { set, passed };
}
