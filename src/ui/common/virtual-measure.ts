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
    const known = instance.itemSizeCache.get(instance.options.getItemKey(index));
    if (known !== undefined) return known;
    if (afterPaint && range && index >= range.startIndex && index <= range.endIndex)
      return instance.options.horizontal ? measureElement(element, entry, instance) : heightWithSiblings(element);
    return instance.options.estimateSize(index);
  };
}

/** Heights read in this commit, by row element: valid until the task's microtasks run. */
let readThisCommit = new WeakMap<Element, number>();
let clearQueued = false;

/**
 * A row's height, read together with every row beside it: React attaches the rows of a commit one
 * after another, and the virtualizer moves the scroll position after each measurement, so reading
 * one row per call laid the page out once per row (three rows of a long chat's end: 17 ms of
 * layout instead of 5). A row's height does not depend on the scroll position, so one read serves
 * the whole commit; the ResizeObserver reports any later change.
 */
function heightWithSiblings(element: Element): number {
  let height = readThisCommit.get(element);
  if (height !== undefined) return height;
  for (const row of element.parentElement?.children ?? [element]) {
    if (row instanceof HTMLElement) readThisCommit.set(row, row.offsetHeight);
  }
  if (!clearQueued) {
    clearQueued = true;
    queueMicrotask(() => {
      readThisCommit = new WeakMap();
      clearQueued = false;
    });
  }
  height = readThisCommit.get(element);
  return height ?? (element instanceof HTMLElement ? element.offsetHeight : 0);
}
