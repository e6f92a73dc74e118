import { startTransition, useEffect, useState } from "react";

/**
 * `target`, reached one step per task: 0 at first, then 1, 2, … (each step a transition, rendered
 * in a task of its own); a lower target is taken at once, and a new `key` starts again from 0.
 * The message list uses it where a chat's opening would otherwise lay out several rows of
 * Markdown in one task: the rows in view (drawn from the end, one more per task) and the overscan
 * rows once the whole path is in.
 */
export function useRamp(target: number, key: unknown = null): number {
  const [state, setState] = useState({ key, value: 0 });
  const value = state.key === key ? Math.min(state.value, target) : 0;
  useEffect(() => {
    if (state.key !== key || state.value > target) {
      setState({ key, value: Math.min(target, state.key === key ? state.value : 0) });
      return;
    }
    if (value >= target) return;
    const timer = setTimeout(
      () => startTransition(() => setState((s) => (s.key === key ? { key, value: s.value + 1 } : s))),
      0,
    );
    return () => clearTimeout(timer);
  }, [key, target, value, state.key, state.value]);
  return value;
}
