import { describe, expect, it } from "vitest";
import { createSliceQueue } from "./slice-queue";

/** A queue whose tasks run only when the test says, with a clock the jobs advance. */
function harness(budgetMs: number, hold: { ms: number } = { ms: 0 }) {
  const tasks: Array<() => void> = [];
  const delayed: number[] = [];
  let clock = 0;
  const queue = createSliceQueue({
    post: (run) => tasks.push(run),
    budgetMs,
    now: () => clock,
    holdMs: () => hold.ms,
    postAfter: (run, ms) => {
      delayed.push(ms);
      tasks.push(run);
    },
  });
  const runTask = () => {
    const task = tasks.shift();
    if (!task) throw new Error("no task posted");
    task();
  };
  return { queue, tasks, delayed, runTask, spend: (ms: number) => (clock += ms) };
}

describe("createSliceQueue", () => {
  it("runs nothing in the enqueuing task, then jobs in order in a later one", () => {
    const { queue, tasks, runTask } = harness(8);
    const ran: string[] = [];
    queue.enqueue(() => ran.push("a"));
    queue.enqueue(() => ran.push("b"));
    expect(ran).toEqual([]);
    expect(tasks).toHaveLength(1);
    runTask();
    expect(ran).toEqual(["a", "b"]);
    expect(tasks).toHaveLength(0);
  });

  it("ends a task once the budget is spent and continues in the next one", () => {
    const { queue, tasks, runTask, spend } = harness(8);
    const ran: number[] = [];
    for (let i = 0; i < 5; i++)
      queue.enqueue(() => {
        ran.push(i);
        spend(5);
      });
    runTask();
    expect(ran).toEqual([0, 1]); // 5 ms, then 10 ms ≥ 8: the task ends
    expect(tasks).toHaveLength(1);
    runTask();
    expect(ran).toEqual([0, 1, 2, 3]);
    runTask();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(tasks).toHaveLength(0);
  });

  it("never runs a cancelled job, and cancelling after it ran is harmless", () => {
    const { queue, runTask } = harness(8);
    const ran: string[] = [];
    const cancelA = queue.enqueue(() => ran.push("a"));
    const cancelB = queue.enqueue(() => ran.push("b"));
    cancelA();
    runTask();
    expect(ran).toEqual(["b"]);
    cancelB();
    queue.enqueue(() => ran.push("c"));
    runTask();
    expect(ran).toEqual(["b", "c"]);
  });

  it("keeps going after a job throws", async () => {
    const { queue, runTask } = harness(8);
    const ran: string[] = [];
    const errors: unknown[] = [];
    const original = globalThis.queueMicrotask;
    globalThis.queueMicrotask = (fn) => {
      try {
        fn();
      } catch (error) {
        errors.push(error);
      }
    };
    try {
      queue.enqueue(() => {
        throw new Error("bad block");
      });
      queue.enqueue(() => ran.push("next"));
      runTask();
    } finally {
      globalThis.queueMicrotask = original;
    }
    expect(ran).toEqual(["next"]);
    expect(errors).toHaveLength(1);
  });

  it("runs nothing while held, then every job once the hold ends (a fling's colours wait for it to stop)", () => {
    const hold = { ms: 120 };
    const { queue, tasks, delayed, runTask } = harness(8, hold);
    const ran: string[] = [];
    queue.enqueue(() => ran.push("a"));
    const cancelB = queue.enqueue(() => ran.push("b"));
    runTask();
    expect(ran).toEqual([]);
    expect(delayed).toEqual([120]);
    // The block scrolled away before the hold ended: its job never runs.
    cancelB();
    queue.enqueue(() => ran.push("c"));
    expect(tasks).toHaveLength(1); // still one run pending, not a second schedule
    hold.ms = 0;
    runTask();
    expect(ran).toEqual(["a", "c"]);
    expect(tasks).toHaveLength(0);
  });
});
