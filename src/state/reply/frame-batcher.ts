/**
 * Coalesces many updates into one per animation frame (STYLE §12): tokens arrive far faster
 * than the screen repaints, and only the newest value matters.
 */
export function createFrameBatcher<T>(apply: (value: T) => void): { push: (value: T) => void; flush: () => void } {
  let pending: { value: T } | null = null;
  let scheduled = false;
  const schedule =
    typeof requestAnimationFrame === "function"
      ? (cb: () => void) => requestAnimationFrame(cb)
      : (cb: () => void) => setTimeout(cb, 16);
  const flush = () => {
    scheduled = false;
    if (pending) {
      const { value } = pending;
      pending = null;
      apply(value);
    }
  };
  return {
    push(value) {
      pending = { value };
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
