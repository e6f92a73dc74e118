/**
 * "After the first screen": background work (the search worker, the meter's count and its
 * tokenizer, the service worker's precache, chunk preloads, sync) waits until the first screen is
 * shown and the page is then idle, so none of it shares a cold start's network or CPU. The UI says
 * when the first screen is shown (`firstScreenShown`); an idle callback after the next frame
 * releases the waiters, marked `grove:first-screen-idle` for the tests and the bench.
 */
import { whenScrollQuiet } from "./scroll-quiet";

/** The performance mark set when the waiters are released. */
const FIRST_SCREEN_IDLE_MARK = "grove:first-screen-idle";
/** How long the page may stay busy after the first screen before the waiters run anyway (ms). */
const IDLE_TIMEOUT_MS = 2_000;

/** A hidden tab's first screen: the frame that would paint it may never come (ms). */
const HIDDEN_TAB_WAIT_MS = 1_000;

let release: () => void = () => {};
const idle = new Promise<void>((resolve) => {
  release = resolve;
});
let shown = false;

/** Resolves once the first screen has been shown and the page was idle after it (at once after that). */
export function afterFirstScreen(): Promise<void> {
  return idle;
}

/** Runs `run` after the first screen (see above); a throw or rejection is the caller's to handle inside `run`. */
export function whenFirstScreenIdle(run: () => void): void {
  void idle.then(run);
}

/** How long background work waits, after the first screen's idle, for a chat's open to settle (ms). */
const SETTLE_TIMEOUT_MS = 10_000;

let settle: () => void = () => {};
const settled = new Promise<void>((resolve) => {
  settle = resolve;
});

/**
 * The open chat is all in (its whole path read and drawn, or no chat is open): called by the UI;
 * later calls do nothing. A long chat's tree arrives for a second or more after its first screen.
 */
export function openSettled(): void {
  settle();
}

/** How long the page must go without a scroll before heavy background work starts (ms). */
const SCROLL_QUIET_MS = 1_000;

/**
 * Runs `run` once the first screen is idle and the opening chat has settled (or `SETTLE_TIMEOUT_MS`
 * after that idle, whichever is first), and the user is not scrolling, in an idle callback: for heavy
 * background work (the search worker loading its index) that would otherwise share the 2 cores with
 * a long chat's tree read, and whose reports to the page would land in scroll frames (issue 25).
 */
export function whenOpenSettled(run: () => void): void {
  void idle
    .then(() => Promise.race([settled, new Promise<void>((resolve) => setTimeout(resolve, SETTLE_TIMEOUT_MS))]))
    .then(() => whenScrollQuiet(SCROLL_QUIET_MS))
    .then(() => {
      if (typeof requestIdleCallback === "function") requestIdleCallback(() => run(), { timeout: IDLE_TIMEOUT_MS });
      else setTimeout(run, 0);
    });
}

/** The first screen is on the page (called by the UI once; later calls do nothing). */
export function firstScreenShown(): void {
  if (shown) return;
  shown = true;
  const done = () => {
    performance.mark(FIRST_SCREEN_IDLE_MARK);
    release();
  };
  let waited = false;
  // After the frame that paints it (a hidden tab draws no frames: then after a moment), then when
  // the page has nothing else to do.
  const afterFrame = () => {
    if (waited) return;
    waited = true;
    if (typeof requestIdleCallback === "function") requestIdleCallback(done, { timeout: IDLE_TIMEOUT_MS });
    else setTimeout(done, 0);
  };
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(afterFrame, 0));
  setTimeout(afterFrame, HIDDEN_TAB_WAIT_MS);
}
