/**
 * A long pure computation written as a generator that pauses (`yield`) every `STEP_ITEMS` items of
 * its loops, so the page can run it a few milliseconds per task (state/app/run-in-slices.ts) and
 * everyone else at once (`finish`). The result is the same either way: a pause changes nothing but
 * when the rest runs. No I/O, no clock here.
 */

/** A computation in steps: `yield` marks where it may pause; the return value is its result. */
export type Steps<T> = Generator<void, T, void>;

/** Items of a loop between two pauses: small enough that one step is well under a millisecond. */
export const STEP_ITEMS = 50;

/** Whether the loop at `index` has reached a pause point (every `STEP_ITEMS` items). */
export const atPause = (index: number): boolean => index % STEP_ITEMS === STEP_ITEMS - 1;

/** Runs `steps` to the end at once, in the caller's task. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
