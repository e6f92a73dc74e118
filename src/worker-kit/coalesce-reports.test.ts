import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { coalesceReports } from "./coalesce-reports";

type Report = { kind: "progress"; done: number } | { kind: "idle" };
const isProgress = (r: Report) => r.kind === "progress";
const progress = (done: number): Report => ({ kind: "progress", done });

describe("coalesceReports", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends the first progress at once, then at most one per interval: the latest", () => {
    const sent: Report[] = [];
    const reports = coalesceReports<Report>((r) => sent.push(r), isProgress, 250);
    reports.report(progress(1));
    expect(sent).toEqual([progress(1)]);
    // A burst of 99 reports within one interval (a batch every 2 ms).
    for (let i = 2; i <= 100; i++) {
      vi.advanceTimersByTime(2);
      reports.report(progress(i));
    }
    expect(sent).toEqual([progress(1)]);
    vi.advanceTimersByTime(250);
    expect(sent).toEqual([progress(1), progress(100)]);
    // Nothing waiting: the timer ends, and the next report after a quiet spell goes at once.
    vi.advanceTimersByTime(1_000);
    expect(sent).toHaveLength(2);
    reports.report(progress(101));
    expect(sent.at(-1)).toEqual(progress(101));
  });

  it("sends a steady stream at most four times a second", () => {
    const sent: Report[] = [];
    const reports = coalesceReports<Report>((r) => sent.push(r), isProgress);
    for (let i = 0; i < 1_000; i++) {
      reports.report(progress(i));
      vi.advanceTimersByTime(1);
    }
    // 1,000 reports over one second.
    expect(sent.length).toBeLessThanOrEqual(5);
    vi.runAllTimers();
    expect(sent.at(-1)).toEqual(progress(999));
  });

  it("sends a final report at once and drops the progress it supersedes", () => {
    const sent: Report[] = [];
    const reports = coalesceReports<Report>((r) => sent.push(r), isProgress, 250);
    reports.report(progress(1));
    reports.report(progress(2));
    reports.report({ kind: "idle" });
    expect(sent).toEqual([progress(1), { kind: "idle" }]);
    vi.runAllTimers();
    expect(sent).toEqual([progress(1), { kind: "idle" }]);
    // After a final report the next progress goes at once.
    reports.report(progress(3));
    expect(sent.at(-1)).toEqual(progress(3));
  });

  it("flush sends what waits, now", () => {
    const sent: Report[] = [];
    const reports = coalesceReports<Report>((r) => sent.push(r), isProgress, 250);
    reports.report(progress(1));
    reports.report(progress(2));
    reports.flush();
    expect(sent).toEqual([progress(1), progress(2)]);
    vi.runAllTimers();
    expect(sent).toHaveLength(2);
  });
});
