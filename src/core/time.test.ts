import { describe, expect, it } from "vitest";
import { formatTime, isoTime, isRepresentableTime, MAX_TIME_MS, UNKNOWN_DATE } from "./time";

const BAD = [1e300, -1e300, Number.NaN, Number.POSITIVE_INFINITY, MAX_TIME_MS + 1];

describe("times", () => {
  it("are dates only within what a Date holds", () => {
    expect(isRepresentableTime(0)).toBe(true);
    expect(isRepresentableTime(MAX_TIME_MS)).toBe(true);
    expect(isRepresentableTime("1")).toBe(false);
    for (const ms of BAD) expect(isRepresentableTime(ms)).toBe(false);
  });

  it("format in every style and never throw: a bad time reads 'unknown date'", () => {
    const ms = Date.UTC(2026, 9, 4, 10, 42);
    expect(formatTime(ms, "monthYear", "en-US")).toBe("October 2026");
    expect(formatTime(ms, "date", "en-US")).toBe("Oct 4, 2026");
    expect(isoTime(ms)).toBe("2026-10-04T10:42:00.000Z");
    for (const style of ["date", "shortDate", "dateTime", "clock", "monthYear"] as const) {
      for (const bad of BAD) expect(formatTime(bad, style)).toBe(UNKNOWN_DATE);
    }
    for (const bad of BAD) expect(isoTime(bad)).toBeUndefined();
  });
});
