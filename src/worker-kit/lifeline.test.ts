import { describe, expect, it, vi } from "vitest";
import { holdLifeline, isLifelineHeld, lifelineName, watchLifeline } from "./lifeline";
import { FakeLocks } from "./testing/fake-worker";

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("lifeline: a worker's death is seen through its lock", () => {
  it("the watcher is told only once the holder is gone, never while it lives (however long)", async () => {
    const locks = new FakeLocks();
    const name = lifelineName("test");
    const posted: unknown[] = [];
    holdLifeline(locks, name, (m) => posted.push(m));
    await flush();
    expect(posted).toEqual([{ groveLifelineHeld: name }]);
    expect(isLifelineHeld(posted[0])).toBe(true);

    const onDeath = vi.fn();
    const watch = watchLifeline(locks, onDeath);
    watch.held(name);
    await flush();
    expect(onDeath).not.toHaveBeenCalled();
    locks.kill(name);
    await flush();
    expect(onDeath).toHaveBeenCalledTimes(1);
  });

  it("stop() before ending a worker on purpose: no death reported", async () => {
    const locks = new FakeLocks();
    holdLifeline(locks, "w", () => {});
    const onDeath = vi.fn();
    const watch = watchLifeline(locks, onDeath);
    watch.held("w");
    watch.stop();
    locks.kill("w");
    await flush();
    expect(onDeath).not.toHaveBeenCalled();
  });

  it("without Web Locks there is no lifeline, and nothing fails", async () => {
    const posted: unknown[] = [];
    holdLifeline(undefined, "w", (m) => posted.push(m));
    const watch = watchLifeline(undefined, () => {});
    watch.held("w");
    watch.stop();
    expect(posted).toEqual([]);
    expect(isLifelineHeld({ other: 1 })).toBe(false);
    expect(lifelineName("a")).not.toBe(lifelineName("a"));
  });
});
