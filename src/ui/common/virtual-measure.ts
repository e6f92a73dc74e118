import { measureElement, type Virtualizer } from "@tanstack/react-virtual";
import { useEffect, useState } from "react";

/** Whether the page has painted the app once (for good, once it has). */
let painted = false;

/**
 * False until the page has painted once, then true (at once for everything mounted later).
 *
 * A virtualized list reads its scroll box and its rows' sizes when it attaches, and each read
 * forces a layout; in a fresh tab the first layout is the page's costliest (every font it names is
 * looked up), and forced inside React's commit it made one task of the commit and the layout. The
 * lists attach their scroll box once this is true: the first frame is laid out by the browser in a
 * task of its own, from the estimated row heights, and the lists measure the laid-out page after.
 */
export function useAfterFirstPaint(): boolean {
  const [after, setAfter] = useState(painted);
  useEffect(() => {
    if (after) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      painted = true;
      setAfter(true);
    };
    // After the frame the first render is painted in (a frame callback runs just before it).
    if (typeof requestAnimationFrame !== "function") {
      timer = setTimeout(done, 0);
      return () => clearTimeout(timer);
    }
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(done, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [after]);
  return after;
}

/**
 * A virtualizer's `measureElement` that reads the layout (forcing it, inside React's commit) only
 * for a row in view once the page has painted: a row in view must be placed right in the frame it
 * appears in. Any other row (overscan above or below, every row before the first paint) counts as
 * its known or estimated size, and the ResizeObserver the virtualizer keeps on every row reports its
 * real size after the browser's own layout; the virtualizer then moves what is below it, and keeps
 * the rows in view where they are. Opening a long chat mounted its overscan rows together, and
 * measuring them one by one laid out Markdown (and looked up its fonts) inside one long task.
 */
export function measureInView<S extends Element, I extends Element>(afterPaint: boolean) {
  return (element: I, entry: ResizeObserverEntry | undefined, instance: Virtualizer<S, I>): number => {
    if (entry) return measureElement(element, entry, instance);
    const index = instance.indexFromElement(element);
    const range = instance.range;
    if (afterPaint && range && index >= range.startIndex && index <= range.endIndex)
      return measureElement(element, entry, instance);
    return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
  };
}
