import { describe, expect, it } from "vitest";
import { finish, type Steps } from "../../core/steps";
import { runInSlices } from "./run-in-slices";

/** Sums 1..n, pausing after each number; `clock.t` advances 1 ms per number. */
function* sum(n: number, clock: { t: number }): Steps<number> {
  let total = 0;
  for (let i = 1; i <= n; i++) {
    total += i;
    clock.t += 1;
    yield;
  }
  return total;
}

describe("runInSlices", () => {
  it("yields to the page once per budget's worth of steps, and gives what running at once gives", async () => {
    const clock = { t: 0 };
    const slices: number[] = [];
    let from = 0;
    const result = await runInSlices(sum(20, clock), {
      budgetMs: 5,
      now: () => clock.t,
      yieldToPage: async () => {
        slices.push(clock.t - from);
        from = clock.t;
      },
    });
    expect(result).toBe(finish(sum(20, { t: 0 })));
    // The first yield comes before any step; then 5 steps (5 ms) per task.
    expect(slices).toEqual([0, 5, 5, 5, 5]);
  });

  it("starts in a later task, not in the caller's", async () => {
    const clock = { t: 0 };
    let yielded = false;
    const run = runInSlices(sum(3, clock), {
      now: () => clock.t,
      yieldToPage: async () => {
        yielded = true;
      },
    });
    expect(clock.t).toBe(0);
    expect(await run).toBe(6);
    expect(yielded).toBe(true);
  });

  it("stops at the next yield when asked, leaving the rest undone", async () => {
    const clock = { t: 0 };
    let stop = false;
    const result = await runInSlices(sum(100, clock), {
      budgetMs: 10,
      now: () => clock.t,
      yieldToPage: async () => {
        if (clock.t >= 20) stop = true;
      },
      stopped: () => stop,
    });
    expect(result).toBeUndefined();
    expect(clock.t).toBe(20);
  });
});
