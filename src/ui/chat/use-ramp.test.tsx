// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useRamp } from "./use-ramp";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs the next timer (one task) and the render it asks for. */
const nextTask = () => act(() => vi.advanceTimersToNextTimer());

describe("useRamp", () => {
  it("starts at 0 and rises by one per task up to the target, then stays", async () => {
    const { result } = renderHook(({ target }) => useRamp(target), { initialProps: { target: 3 } });
    const seen = [result.current];
    for (let i = 0; i < 5; i++) {
      await nextTask();
      seen.push(result.current);
    }
    expect(seen).toEqual([0, 1, 2, 3, 3, 3]);
  });

  it("takes a lower target at once, and rises again from there", async () => {
    const { result, rerender } = renderHook(({ target }) => useRamp(target), { initialProps: { target: 2 } });
    await nextTask();
    await nextTask();
    expect(result.current).toBe(2);
    rerender({ target: 0 });
    expect(result.current).toBe(0);
    rerender({ target: 2 });
    expect(result.current).toBe(0);
    await nextTask();
    expect(result.current).toBe(1);
  });
});

describe("useRamp with a key", () => {
  it("starts again from 0 when the key changes", async () => {
    const { result, rerender } = renderHook(({ target, key }) => useRamp(target, key), {
      initialProps: { target: 3, key: "a" },
    });
    await nextTask();
    await nextTask();
    expect(result.current).toBe(2);
    rerender({ target: 3, key: "b" });
    expect(result.current).toBe(0);
    await nextTask();
    expect(result.current).toBe(1);
    await nextTask();
    await nextTask();
    await nextTask();
    expect(result.current).toBe(3);
  });
});
