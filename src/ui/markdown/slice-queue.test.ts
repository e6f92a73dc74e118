import { describe, expect, it } from "vitest";
import { createSliceQueue } from "./slice-queue";

/** A queue whose tasks run only when the test says, with a clock the jobs advance. */
function harness(budgetMs: number) {
  const tasks: Array<() => void> = [];
  let clock = 0;
  const queue = createSliceQueue({ post: (run) => tasks.push(run), budgetMs, now: () => clock });
  const runTask = () => {
    const task = tasks.shift();
    if (!task) throw new Error("no task posted");
    task();
  };
  return { queue, tasks, runTask, spend: (ms: number) => (clock += ms) };
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
});
