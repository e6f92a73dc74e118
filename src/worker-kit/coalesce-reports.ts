/**
 * Background reports from a worker to the page, coalesced: a progress report goes at once after a
 * quiet spell, then at most one per `intervalMs` (the latest; the ones in between are dropped),
 * so a job reporting every batch does not land a message in every frame the user scrolls. A report
 * that is not progress (done, failed, paused) goes at once and drops the progress still waiting:
 * it supersedes it. Pure but for the timers, which tests fake.
 */

export type CoalescedReports<R> = {
  report(r: R): void;
  /** Sends the progress still waiting, now (a job that ends without a final report). */
  flush(): void;
};

/** Few enough for a progress line (four a second), far from one per frame. */
const REPORT_INTERVAL_MS = 250;

export function coalesceReports<R>(
  send: (r: R) => void,
  isProgress: (r: R) => boolean,
  intervalMs: number = REPORT_INTERVAL_MS,
): CoalescedReports<R> {
  let waiting: { r: R } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = () => {
    timer = undefined;
    if (!waiting) return;
    const { r } = waiting;
    waiting = null;
    send(r);
    timer = setTimeout(tick, intervalMs);
  };

  return {
    report(r) {
      if (!isProgress(r)) {
        waiting = null;
        clearTimeout(timer);
        timer = undefined;
        send(r);
        return;
      }
      if (timer === undefined) {
        send(r);
        timer = setTimeout(tick, intervalMs);
      } else waiting = { r };
    },
    flush() {
      clearTimeout(timer);
      timer = undefined;
      if (!waiting) return;
      const { r } = waiting;
      waiting = null;
      send(r);
    },
  };
}
