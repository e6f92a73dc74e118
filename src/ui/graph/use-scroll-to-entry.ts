/**
 * The chat's side of "click a node on the active path → the chat scrolls to it": the graph sets
 * `useUiStore.scrollTo`, the message list calls this hook with its rows and a scroll function.
 * The row is briefly outlined so the eye finds it.
 */
import { useEffect, useRef } from "react";
import { useUiStore } from "../../state/app/ui-store";
import type { DisplayRow } from "../chat/display-rows";

/** How long the outline shown on the row the graph scrolled to lasts. */
const FLASH_MS = 1_400;

function rowIndexOf(rows: readonly DisplayRow[], entryId: string): number {
  return rows.findIndex(
    (r) => r.entry.id === entryId || (r.kind === "entry" && r.continuations.some((c) => c.id === entryId)),
  );
}

export function useScrollToEntry(rows: readonly DisplayRow[], scrollToIndex: (index: number) => void): void {
  const request = useUiStore((s) => s.scrollTo);
  // Latest scroller without re-running for it. A request is acted on once, when its row is there:
  // a search result opens another chat, whose rows arrive after the request.
  const latest = useRef({ scrollToIndex });
  latest.current = { scrollToIndex };
  const done = useRef<number | null>(null);
  useEffect(() => {
    if (!request || done.current === request.nonce) return;
    const index = rowIndexOf(rows, request.entryId);
    if (index < 0) return;
    done.current = request.nonce;
    latest.current.scrollToIndex(index);
    // The virtualizer mounts the row on the next frames: outline it once it is there.
    let frames = 0;
    let raf = 0;
    const flash = () => {
      const row = document.querySelector<HTMLElement>(`.message-row[data-index="${index}"] > *`);
      if (row) {
        row.animate(
          [
            { outline: "2px solid var(--graph-flash, #d39b06)", outlineOffset: "2px" },
            { outline: "2px solid transparent", outlineOffset: "2px" },
          ],
          { duration: FLASH_MS, easing: "ease-out" },
        );
        return;
      }
      if (++frames < 10) raf = requestAnimationFrame(flash);
    };
    raf = requestAnimationFrame(flash);
    return () => cancelAnimationFrame(raf);
  }, [request, rows]);
}
