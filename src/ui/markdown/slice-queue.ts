import { untilScrollQuiet } from "../../state/app/scroll-quiet";

/**
 * Runs small jobs in later tasks, a few milliseconds' worth per task, so work that is not needed for
 * the first paint (colouring code blocks) never joins the task that renders a chat. FIFO: blocks
 * are coloured in the order they were rendered (top of the screen first). A cancelled job that
 * has not run yet never runs (a block that unmounted, or whose text changed). A hold (`holdMs`)
 * puts every job off while it lasts: the app's queue waits while the page scrolls.
 */
export type SliceQueue = {
  /** Queues `job`; returns a cancel function (idempotent, harmless after the job ran). */
  enqueue(job: () => void): () => void;
};

export type SliceQueueOptions = {
  /** Schedules `run` in a later task. */
  post: (run: () => void) => void;
  /** Milliseconds of jobs per task; the task that crosses it ends right after that job. */
  budgetMs: number;
  now: () => number;
  /** How long (ms) jobs must wait before they may run now; 0 when they may (default: never wait). */
  holdMs?: () => number;
  /** Schedules `run` after `ms` (used when `holdMs` says wait). */
  postAfter?: (run: () => void, ms: number) => void;
};

export function createSliceQueue({
  post,
  budgetMs,
  now,
  holdMs = () => 0,
  postAfter = (run, ms) => setTimeout(run, ms),
}: SliceQueueOptions): SliceQueue {
  const jobs = new Set<() => void>();
  let scheduled = false;

  const run = () => {
    const wait = holdMs();
    if (wait > 0) {
      postAfter(run, wait);
      return;
    }
    scheduled = false;
    const start = now();
    for (const job of jobs) {
      jobs.delete(job);
      try {
        job();
      } catch (error) {
        // One bad job must not stall the rest; report it where uncaught errors go.
        queueMicrotask(() => {
          throw error;
        });
      }
      if (now() - start >= budgetMs) break;
    }
    if (jobs.size > 0) schedule();
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    post(run);
  };

  return {
    enqueue(job) {
      // Wrapped so the same function queued twice is two jobs.
      const entry = () => job();
      jobs.add(entry);
      schedule();
      return () => {
        jobs.delete(entry);
      };
    },
  };
}

type PostTask = (
  callback: () => void,
  options?: { priority?: "user-blocking" | "user-visible" | "background" },
) => unknown;

/** A later task: `scheduler.postTask` where the browser has it (no 4 ms clamp), else setTimeout. */
function postLater(run: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler;
  if (scheduler?.postTask) void scheduler.postTask(run, { priority: "user-visible" });
  else setTimeout(run, 0);
}

/**
 * A fling mounts each row for a few frames: colouring its code then is work nobody sees, and a
 * task of it between two frames made the next one miss its vsync (issue 25). Colours come this
 * long (ms) after the scrolling stops.
 */
const SCROLL_QUIET_MS = 150;

/** The app's queue for colouring code; 8 ms a task leaves most of a frame to the page. */
export const highlightQueue: SliceQueue = createSliceQueue({
  post: postLater,
  budgetMs: 8,
  now: () => performance.now(),
  holdMs: () => untilScrollQuiet(SCROLL_QUIET_MS),
});
