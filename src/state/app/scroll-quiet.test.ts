// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

async function load() {
  vi.resetModules();
  return import("./scroll-quiet");
}

describe("scroll-quiet", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts an element's scroll (which does not bubble) and says how long until it is quiet", async () => {
    const m = await load();
    expect(m.untilScrollQuiet(150)).toBeLessThanOrEqual(0);
    const list = document.createElement("div");
    document.body.append(list);
    list.dispatchEvent(new Event("scroll"));
    expect(m.untilScrollQuiet(150)).toBe(150);
    await vi.advanceTimersByTimeAsync(100);
    expect(m.untilScrollQuiet(150)).toBe(50);
    await vi.advanceTimersByTimeAsync(50);
    expect(m.untilScrollQuiet(150)).toBeLessThanOrEqual(0);
    list.remove();
  });

  it("resolves only after the page has gone the quiet time without a scroll", async () => {
    const m = await load();
    const list = document.createElement("div");
    document.body.append(list);
    const done = vi.fn();
    list.dispatchEvent(new Event("scroll"));
    void m.whenScrollQuiet(300).then(done);
    await vi.advanceTimersByTimeAsync(200);
    list.dispatchEvent(new Event("scroll"));
    await vi.advanceTimersByTimeAsync(200);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toHaveBeenCalledTimes(1);
    list.remove();
  });
});
