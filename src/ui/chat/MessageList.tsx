import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef } from "react";
import type { SessionId } from "../../core/session/ids";
import { useStreamStore } from "../../state/stores";
import type { SessionView } from "../hooks";
import { EntryView } from "./EntryView";
import { StreamingMessage } from "./StreamingMessage";

/** How close to the bottom (px) counts as "following" the conversation. */
const FOLLOW_THRESHOLD_PX = 80;

/**
 * The active path, virtualized: only the rows in view (plus overscan) are in the DOM, so a
 * 2,000-message path scrolls smoothly. The reply in flight is the last row and reads the
 * stream store itself, so tokens never re-render the list.
 */
export function MessageList({ view, sessionId }: { view: SessionView; sessionId: SessionId | null }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The reply in flight belongs under its parent: shown only while that parent is the leaf on screen.
  // After a version switch mid-reply it streams on in its own branch, not under this one.
  const leafId = view.session?.leafId ?? null;
  const streaming = useStreamStore((s) =>
    sessionId ? s.replies[sessionId] !== undefined && s.replies[sessionId]?.parentId === leafId : false,
  );
  const count = view.path.length + (streaming ? 1 : 0);
  const following = useRef(true);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 140,
    overscan: 6,
    getItemKey: (i) => view.path[i]?.id ?? "streaming",
  });

  // Opening a session or a new message while following: stay at the bottom.
  const lastKey = view.path[view.path.length - 1]?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the tail of the list changes
  useLayoutEffect(() => {
    if (following.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [lastKey, count, sessionId]);

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
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_THRESHOLD_PX;
      }}
    >
      <div className="message-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const entry = view.path[row.index];
          return (
            <div
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className="message-row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {entry ? (
                <EntryView entry={entry} view={view} />
              ) : (
                sessionId && <StreamingMessage sessionId={sessionId} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
