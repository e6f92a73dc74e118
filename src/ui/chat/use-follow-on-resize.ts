import { type RefObject, useEffect } from "react";

/**
 * Keeps the newest message in view when the list's own box shrinks while the user follows the
 * conversation: a bar appearing under it (automatic compaction, a queued message) takes height
 * from the list, and without this the reply placeholder under the message just sent slid out of view.
 */
export function useFollowOnResize(scrollRef: RefObject<HTMLElement | null>, following: RefObject<boolean>): void {
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (following.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRef, following]);
}
