/**
 * When the page last scrolled, for work that must not land in scroll frames (issue 25): a
 * background worker's start, the colouring of code blocks a fling mounts for a few frames only.
 */

let lastScrollAt = Number.NEGATIVE_INFINITY;
if (typeof document !== "undefined") {
  // Capture: a scroll of any element (the message list) does not bubble to the document.
  document.addEventListener("scroll", () => (lastScrollAt = performance.now()), { capture: true, passive: true });
}

/** How long (ms) until the page will have gone `quietMs` without a scroll; ≤ 0 when it has. */
export function untilScrollQuiet(quietMs: number): number {
  return lastScrollAt + quietMs - performance.now();
}

/** Resolves once the page has gone `quietMs` without a scroll. */
export function whenScrollQuiet(quietMs: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const wait = untilScrollQuiet(quietMs);
      if (wait <= 0) resolve();
      else setTimeout(check, wait);
    };
    check();
  });
}
