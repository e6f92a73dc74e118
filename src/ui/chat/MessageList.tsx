import { useVirtualizer } from "@tanstack/react-virtual";
import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import type { SessionId } from "../../core/session/ids";
import { useStreamStore } from "../../state/reply/stream-store";
import { measureInView, useAfterFirstPaint } from "../common/virtual-measure";
import { useScrollToEntry } from "../graph/use-scroll-to-entry";
import type { SessionView } from "../hooks";
import { EntryView } from "./EntryView";
import { LOADING_EARLIER_PX, openingLayout } from "./opening-layout";
import { rowsOf } from "./prepare-rows";
import { estimateRowHeight, ROW_ESTIMATE_PX } from "./row-estimate";
import { StreamingMessage } from "./StreamingMessage";
import { useFollowOnResize } from "./use-follow-on-resize";
import { useRamp } from "./use-ramp";
import { takeVersionAnchor } from "./version-anchor";

/**
 * Rows drawn when a chat opens: the last one, then one more above it per task (useRamp); from this
 * step on, every row in range. In a fresh tab the first layout of each row of Markdown is costly
 * (its fonts, its text), and three or four rows laid out at once were a task of 60–80 ms.
 */
const FIRST_ROWS_STEPS = 6;

/** How close to the bottom (px) counts as "following" the conversation. */
const FOLLOW_THRESHOLD_PX = 80;
/** A scroll this soon (ms) after a wheel, touch, key or pointer press is the user's doing. */
const USER_SCROLL_WINDOW_MS = 1_000;

/**
 * The active path as display rows (display-rows.ts: compaction cards at their cut, folded history
 * dimmed, continuations joined), virtualized: only the rows in view (plus overscan) are in the
 * DOM, so a 2,000-message path scrolls smoothly. The reply in flight is the last row and reads
 * the stream store itself, so tokens never re-render the list.
 */
export function MessageList({ view, sessionId }: { view: SessionView; sessionId: SessionId | null }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  // The reply in flight belongs under its parent: shown only while that parent is the leaf on screen.
  // After a version switch mid-reply it streams on in its own branch, not under this one.
  const leafId = view.session?.leafId ?? null;
  const streaming = useStreamStore((s) =>
    sessionId ? s.replies[sessionId] !== undefined && s.replies[sessionId]?.parentId === leafId : false,
  );
  const rows = useMemo(() => rowsOf(view.path), [view.path]);
  // By index, made once per rows: the virtualizer recomputes every row's place from the first
  // re-measured one to the end, asking each row's key and estimate; scrolling up a 10,000-message
  // path that was thousands of look-ups per frame (issue 25).
  const keys = useMemo(() => rows.map((row) => row.key), [rows]);
  const estimates = useMemo(() => rows.map(estimateRowHeight), [rows]);
  // A reply streaming under a reply that was cut off by the output limit is its continuation
  // (Continue): drawn joined to it, as it will be once written.
  const lastRow = rows[rows.length - 1];
  const continuing = streaming && lastRow?.kind === "entry" && lastRow.continuable;
  const count = rows.length + (streaming ? 1 : 0);
  // Opening a chat draws the end of its path first (hooks.ts); the rest is being read.
  const opening = openingLayout(view.path, view.complete);
  // The overscan rows join one per task once the chat is open (use-ramp.ts says why).
  const overscan = useRamp(opening.overscan, sessionId);
  const firstRows = useRamp(FIRST_ROWS_STEPS, sessionId);
  // Not while a reply is in flight: a chat's first message and its reply show at once, together.
  const drawn = streaming || firstRows >= FIRST_ROWS_STEPS ? Number.POSITIVE_INFINITY : firstRows + 1;
  const following = useRef(true);
  useFollowOnResize(scrollRef, following);
  // Only the user stops the following: rows measured or inserted above (a compaction card drawn at
  // its cut) move the scroll position too, and must not leave the newest message out of view.
  const userScrollAt = useRef(0);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const mark = () => {
      userScrollAt.current = performance.now();
    };
    const events = ["wheel", "touchmove", "pointerdown", "keydown"] as const;
    for (const type of events) el.addEventListener(type, mark, { passive: true });
    return () => {
      for (const type of events) el.removeEventListener(type, mark);
    };
  }, []);

  // The scroll box is attached after the page's first paint (ui/common/virtual-measure.ts).
  const afterPaint = useAfterFirstPaint();
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => (afterPaint ? scrollRef.current : null),
    measureElement: measureInView(afterPaint),
    // Before a row is measured: from its text (row-estimate.ts), so the first render draws the rows
    // that fill the window, not six long answers where two fit.
    estimateSize: (i) => estimates[i] ?? ROW_ESTIMATE_PX,
    // A chat opens at its end: start the first render there, rather than drawing the first rows
    // only to scroll past them (on a 2,000-message chat that was a fifth of a cold open).
    initialOffset: () => estimates.reduce((sum, px) => sum + px, 0),
    // Before the list is laid out its height is unknown (0: only the overscan rows would be drawn),
    // and the rows that then come into view were rendered at once while React committed. The
    // window's height is a little more than the list's: the first render draws every row in view.
    initialRect: { width: 0, height: typeof window === "undefined" ? 0 : window.innerHeight },
    getItemKey: (i) => keys[i] ?? "streaming",
    // While the chat opens: no overscan, room for "Loading earlier messages…", and the place kept
    // by row key as the rest of the path arrives above (opening-layout.ts).
    ...opening,
    overscan,
  });
  // A row measured at mount re-renders the list (the rows now in view), and React flushes an
  // update made while it commits at once, in the same task: opening a long chat chained render,
  // measure and render of the newly visible rows' Markdown into one 0.3 s task. As a transition
  // that re-render is sliced and yields to the page.
  const measure = useCallback(
    (el: HTMLDivElement | null) => startTransition(() => virtualizer.measureElement(el)),
    [virtualizer],
  );
  // The history graph asks to show an entry of the path: stop following and scroll to its row.
  useScrollToEntry(rows, (i) => {
    following.current = false;
    virtualizer.scrollToIndex(i, { align: "start" });
  });

  // A click on ‹ or › (version-anchor.ts): the version it shows goes where the clicked message was.
  // The list may end sooner on the new path; a floor under it (min-height) keeps the room needed,
  // and shrinks as the user scrolls up, so no empty space is ever scrolled into.
  const anchoredNow = useRef(false);
  const floor = useRef(0);
  useLayoutEffect(() => {
    const anchor = takeVersionAnchor((id) => rows.some((r) => r.entry.id === id));
    const el = scrollRef.current;
    const list = listRef.current;
    if (!anchor || !el || !list) return;
    const index = rows.findIndex((r) => r.entry.id === anchor.entryId);
    const start = virtualizer.measurementsCache[index]?.start;
    if (start === undefined) return;
    following.current = false;
    anchoredNow.current = true;
    const target = Math.max(0, start - anchor.top);
    floor.current = target + el.clientHeight;
    list.style.minHeight = `${floor.current}px`;
    el.scrollTop = target;
  }, [rows, virtualizer]);

  // Opening a session or a new message while following: stay at the bottom. A message the user
  // just sent (or edited) is always brought into view, wherever they had scrolled.
  const last = view.path[view.path.length - 1];
  const lastKey = last?.id;
  const lastIsUser = last?.type === "message" && last.role === "user";
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the tail of the list changes
  useLayoutEffect(() => {
    if (anchoredNow.current) {
      anchoredNow.current = false;
      return;
    }
    if (floor.current > 0 && listRef.current) {
      floor.current = 0;
      listRef.current.style.minHeight = "";
    }
    if (lastIsUser) following.current = true;
    if (following.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [lastKey, count, sessionId, afterPaint]);

  // While a reply streams and the user is following, keep the growing row in view.
  useEffect(() => {
    if (!sessionId) return;
    return useStreamStore.subscribe((s, prev) => {
      if (s.replies[sessionId] !== prev.replies[sessionId] && following.current) {
        const el = scrollRef.current;
        if (el) el.scrollTop = el.scrollHeight;
      }
    });
  }, [sessionId]);

  return (
    <div
      ref={scrollRef}
      className="message-scroll"
      onScroll={(e) => {
        const el = e.currentTarget;
        if (floor.current > 0 && listRef.current) {
          floor.current = Math.min(floor.current, el.scrollTop + el.clientHeight);
          listRef.current.style.minHeight = `${floor.current}px`;
        }
        const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_THRESHOLD_PX;
        if (atBottom) following.current = true;
        else if (performance.now() - userScrollAt.current < USER_SCROLL_WINDOW_MS) following.current = false;
      }}
    >
      <div ref={listRef} className="message-list" style={{ height: virtualizer.getTotalSize() }}>
        {opening.paddingStart > 0 && (
          <p className="loading-earlier muted small" role="status" style={{ height: LOADING_EARLIER_PX }}>
            Loading earlier messages…
          </p>
        )}
        {virtualizer
          .getVirtualItems()
          .slice(-drawn)
          .map((row) => {
            const item = rows[row.index];
            return (
              <div
                key={row.key}
                data-index={row.index}
                ref={measure}
                className="message-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {item ? (
                  <EntryView row={item} view={view} />
                ) : (
                  sessionId && <StreamingMessage sessionId={sessionId} joined={continuing} />
                )}
              </div>
            );
          })}
      </div>
    </div>
  );
}
