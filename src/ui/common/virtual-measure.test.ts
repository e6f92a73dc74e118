// @vitest-environment jsdom
import type { Virtualizer } from "@tanstack/react-virtual";
import { describe, expect, it, vi } from "vitest";
import { measureInView } from "./virtual-measure";

/** A row element whose height can be read (each read counted: in a browser, a forced layout). */
function row(index: number, height: number) {
  const el = document.createElement("div");
  el.dataset.index = String(index);
  const read = vi.fn(() => height);
  Object.defineProperty(el, "offsetHeight", { get: read });
  return { el, read };
}

function virtualizer(range: { startIndex: number; endIndex: number } | null, cached: Record<string, number> = {}) {
  return {
    range,
    itemSizeCache: new Map(Object.entries(cached)),
    indexFromElement: (el: Element) => Number((el as HTMLElement).dataset.index),
    options: { getItemKey: (i: number) => `k${i}`, estimateSize: () => 50, horizontal: false },
  } as unknown as Virtualizer<HTMLDivElement, HTMLDivElement>;
}

const measure = (afterPaint: boolean) => measureInView<HTMLDivElement, HTMLDivElement>(afterPaint);

describe("measureInView", () => {
  it("reads a row's size only when it is in view and the page has painted", () => {
    const v = virtualizer({ startIndex: 3, endIndex: 5 });
    const inView = row(4, 120);
    expect(measure(true)(inView.el, undefined, v)).toBe(120);
    expect(inView.read).toHaveBeenCalled();
  });

  it("a row out of view counts as its known size, else its estimate, without reading the layout", () => {
    const v = virtualizer({ startIndex: 3, endIndex: 5 }, { k1: 80 });
    const above = row(1, 999);
    const below = row(9, 999);
    expect(measure(true)(above.el, undefined, v)).toBe(80);
    expect(measure(true)(below.el, undefined, v)).toBe(50);
    expect(above.read).not.toHaveBeenCalled();
    expect(below.read).not.toHaveBeenCalled();
  });

  it("before the first paint no row is read, in view or not", () => {
    const inView = row(4, 120);
    expect(measure(false)(inView.el, undefined, virtualizer({ startIndex: 3, endIndex: 5 }))).toBe(50);
    expect(inView.read).not.toHaveBeenCalled();
  });

  it("a ResizeObserver entry gives the row's real size, in view or not", () => {
    const out = row(9, 999);
    const entry = { borderBoxSize: [{ blockSize: 222.4, inlineSize: 600 }] } as unknown as ResizeObserverEntry;
    expect(measure(false)(out.el, entry, virtualizer({ startIndex: 0, endIndex: 1 }))).toBe(222);
    expect(out.read).not.toHaveBeenCalled();
  });

  it("rows attached in one commit are read together, once each; a later commit reads again", async () => {
    const v = virtualizer({ startIndex: 0, endIndex: 2 });
    const rows = [row(0, 100), row(1, 200), row(2, 300)];
    const list = document.createElement("div");
    for (const r of rows) list.append(r.el);
    const m = measure(true);
    expect(m(rows[0]!.el, undefined, v)).toBe(100);
    // One layout for all of them, before the virtualizer moves the scroll position.
    for (const r of rows) expect(r.read).toHaveBeenCalledTimes(1);
    expect(rows.map((r) => m(r.el, undefined, v))).toEqual([100, 200, 300]);
    for (const r of rows) expect(r.read).toHaveBeenCalledTimes(1);
    await Promise.resolve(); // the commit's task is over
    expect(m(rows[1]!.el, undefined, v)).toBe(200);
    expect(rows[1]!.read).toHaveBeenCalledTimes(2);
  });
});
