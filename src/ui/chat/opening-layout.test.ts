import { Virtualizer, type VirtualizerOptions } from "@tanstack/react-virtual";
import { describe, expect, it } from "vitest";
import type { Entry } from "../../core/session/entries";
import { asEntryId, asSessionId } from "../../core/session/ids";
import { earlierLoading, LOADING_EARLIER_PX, OVERSCAN_ROWS, openingLayout } from "./opening-layout";

const sid = asSessionId("s");
/** A linear path of `n` messages (ids e0, e1, …); `from` > 0 gives the end of a longer path. */
function path(n: number, from = 0): Entry[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      id: asEntryId(`e${i}`),
      sessionId: sid,
      parentId: i === 0 ? null : asEntryId(`e${i - 1}`),
      createdAt: i,
      type: "message",
      role: i % 2 === 0 ? "user" : "assistant",
      content: [{ type: "text", text: `m${i}` }],
      status: "complete",
    } as Entry;
  });
}

/** A virtualizer over a fake 600 px scroll element, as MessageList configures it. */
function list(rows: Entry[], complete: boolean) {
  // Only scrollTop is read: the rect and the offset come from the observers below.
  const el = { scrollTop: 0 } as Element;
  let report: ((offset: number, scrolling: boolean) => void) | undefined;
  const options = (r: Entry[], c: boolean): VirtualizerOptions<Element, Element> => ({
    count: r.length,
    getScrollElement: () => el,
    estimateSize: () => 140,
    getItemKey: (i) => r[i]!.id,
    observeElementRect: (_v, cb) => cb({ width: 800, height: 600 }),
    observeElementOffset: (_v, cb) => {
      report = cb;
      cb(el.scrollTop, false);
    },
    scrollToFn: (offset, { adjustments = 0 }) => {
      el.scrollTop = offset + adjustments;
      report?.(el.scrollTop, false);
    },
    ...openingLayout(r, c),
  });
  const v = new Virtualizer(options(rows, complete));
  v._didMount();
  v._willUpdate();
  return {
    v,
    el,
    scrollTo: (offset: number) => {
      el.scrollTop = offset;
      report?.(offset, false);
    },
    update: (r: Entry[], c: boolean) => {
      v.setOptions(options(r, c));
      v._willUpdate();
      v.getVirtualItems();
    },
  };
}

/** Where row `id` starts in the list (px). */
const startOf = (l: ReturnType<typeof list>, id: string) => {
  l.v.getVirtualItems(); // brings the measurements up to date
  return l.v.measurementsCache.find((m) => m.key === id)!.start;
};
/** Where row `id` is drawn relative to the top of the viewport. */
const onScreen = (l: ReturnType<typeof list>, id: string) => startOf(l, id) - l.el.scrollTop;

describe("opening layout", () => {
  it("says the start of the path is still loading only for the end of a longer path", () => {
    expect(earlierLoading(path(40, 1960), false)).toBe(true);
    expect(earlierLoading(path(40, 1960), true)).toBe(false);
    expect(earlierLoading(path(2), false)).toBe(false); // a short chat's tail is its whole path
    expect(earlierLoading([], false)).toBe(false);
  });

  it("draws no rows beyond the viewport until the tree is in", () => {
    expect(openingLayout(path(40, 1960), false)).toMatchObject({ overscan: 0, paddingStart: LOADING_EARLIER_PX });
    expect(openingLayout(path(2000), true)).toMatchObject({ overscan: OVERSCAN_ROWS, paddingStart: 0 });
  });

  it("keeps the row the user reads in place when the rest of the path arrives above it", () => {
    const tail = path(40, 1960);
    const l = list(tail, false);
    // The user scrolled into the tail: row e1990 is 30 px below the top of the viewport.
    l.scrollTo(startOf(l, "e1990") - 30);
    expect(onScreen(l, "e1990")).toBe(30);

    l.update(path(2000), true);
    // 1,960 rows and no loading line above it now: without the anchor it would have moved by
    // 1,960 × 140 − 40 px.
    expect(l.el.scrollTop).toBeGreaterThan(1960 * 140 - LOADING_EARLIER_PX - 100);
    expect(onScreen(l, "e1990")).toBe(30);
  });

  it("keeps the end in view for a reader at the end", () => {
    const tail = path(40, 1960);
    const l = list(tail, false);
    const end = l.v.getTotalSize() - 600;
    l.scrollTo(end);
    l.update(path(2000), true);
    expect(l.el.scrollTop).toBe(l.v.getTotalSize() - 600);
  });
});
