/** The checkpoint row is rewritten at this pace while a reply streams, never per token. */
export const CHECKPOINT_MS = 500;

/**
 * The reply in flight saved while it changes, at most once per `CHECKPOINT_MS`: the one
 * pace for a plain reply and for each step of a tool loop. A save that fails (a full disk) leaves
 * the reply marked changed, so the next tick tries again; the stream never waits on a save.
 */
export function checkpointPace(save: () => Promise<unknown>) {
  let changed = false;
  const now = (): Promise<void> =>
    save().then(
      () => undefined,
      () => {
        changed = true;
      },
    );
  const timer = setInterval(() => {
    if (!changed) return;
    changed = false;
    void now();
  }, CHECKPOINT_MS);
  return {
    /** The reply changed since the last save. */
    changed: () => {
      changed = true;
    },
    /** A new reply starts (a tool loop's next step): nothing of it is unsaved yet. */
    reset: () => {
      changed = false;
    },
    /** Saves at once (the reply's first row). */
    now,
    stop: () => clearInterval(timer),
  };
}
