// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type FirstScreen = typeof import("./first-screen");

/** A fresh copy of the module (its promises are once per page). */
async function load(): Promise<FirstScreen> {
  vi.resetModules();
  return import("./first-screen");
}

describe("whenOpenSettled", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits for the first screen's idle and for the open chat to settle", async () => {
    const m = await load();
    const run = vi.fn();
    m.whenOpenSettled(run);
    m.firstScreenShown();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(run).not.toHaveBeenCalled();
    m.openSettled();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("does not wait for an open that never settles past its timeout", async () => {
    const m = await load();
    const run = vi.fn();
    m.whenOpenSettled(run);
    m.firstScreenShown();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(8_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("does not run before the first screen, settled or not", async () => {
    const m = await load();
    const run = vi.fn();
    m.whenOpenSettled(run);
    m.openSettled();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(run).not.toHaveBeenCalled();
  });

  it("waits while the user scrolls, and runs once scrolling has stopped for a moment", async () => {
    const m = await load();
    const run = vi.fn();
    m.whenOpenSettled(run);
    m.firstScreenShown();
    m.openSettled();
    const list = document.createElement("div");
    document.body.append(list);
    for (let i = 0; i < 6; i++) {
      list.dispatchEvent(new Event("scroll")); // an element's scroll: it does not bubble
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(run).toHaveBeenCalledTimes(1);
    list.remove();
  });
});
