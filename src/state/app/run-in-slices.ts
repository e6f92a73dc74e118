/**
 * Runs a computation in steps (core/steps.ts) a few milliseconds per task, yielding to the page in
 * between: a long pure job (the meter's estimate of a 2,000-message context) never holds the main
 * thread for a whole task. The result is the one `finish` would give.
 */
import type { Steps } from "../../core/steps";
import { nextTask } from "./next-task";

/** Milliseconds of steps per task: most of a frame is left to the page. */
const SLICE_BUDGET_MS = 8;

export type SliceOptions = {
  /** Resolves in a later task (default: `nextTask`). */
  yieldToPage?: () => Promise<void>;
  now?: () => number;
  budgetMs?: number;
  /** Checked after each yield: true stops the run (its promise resolves to undefined). */
  stopped?: () => boolean;
};

/** The result of `steps`, computed slice by slice, starting in a later task; undefined if stopped. */
export async function runInSlices<T>(steps: Steps<T>, opts: SliceOptions = {}): Promise<T | undefined> {
  const { yieldToPage = nextTask, now = () => performance.now(), budgetMs = SLICE_BUDGET_MS, stopped } = opts;
  for (;;) {
    await yieldToPage();
    if (stopped?.()) {
      steps.return(undefined as T);
      return undefined;
    }
    const start = now();
    do {
      const next = steps.next();
      if (next.done) return next.value;
    } while (now() - start < budgetMs);
  }
}
