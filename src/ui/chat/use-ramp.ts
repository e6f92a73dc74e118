import { startTransition, useEffect, useState } from "react";

/**
 * `target`, reached one step per task: 0 at first, then 1, 2, … (each step a transition, rendered
 * in a task of its own); a lower target is taken at once. The message list's overscan rises so
 * once a chat is open: the rows beyond the viewport are Markdown to render and lay out, and the
 * six of them mounted together, with the rest of a long path arriving, were one long task.
 */
export function useRamp(target: number): number {
  const [value, setValue] = useState(0);
  const shown = Math.min(value, target);
  useEffect(() => {
    if (value > target) {
      setValue(target);
      return;
    }
    if (value === target) return;
    const timer = setTimeout(() => startTransition(() => setValue((v) => v + 1)), 0);
    return () => clearTimeout(timer);
  }, [value, target]);
  return shown;
}
