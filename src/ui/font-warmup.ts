/**
 * Font look-ups ahead of need. In a fresh tab the browser knows no font yet: on Linux and Windows
 * the first text laid out in each face and size (a "strike": family, size, weight, style) costs a
 * synchronous round trip to the browser's font service, a few ms each on a busy machine, and the
 * first layout of a chat needed 13–19 of them at once (40–60 ms in one task, the longest of an
 * open); a character the face lacks (✎, ↩) is one more, for a fallback face. So the page remembers
 * the strikes its screens used and the characters beyond ASCII shown in each (localStorage), and
 * the next time it opens, while start-up waits for the database, lays them out a few strikes per
 * task in a hidden box. A first visit warms nothing; nothing here changes what is shown. The
 * remembering (font-strikes-memory.ts) is a chunk of its own, fetched when a screen is remembered.
 */
import { useEffect } from "react";
import { nextTask } from "../state/app/next-task";
import { stored } from "./font-strikes-store";

/** Strikes laid out per task: each may be a round trip or two to the font service. */
const PER_TASK = 3;

/** Lays out every remembered strike's text, PER_TASK per task, in a hidden box; then removes it. */
export async function warmFontStrikes(): Promise<void> {
  const strikes = stored();
  if (strikes.length === 0) return;
  const box = document.createElement("div");
  box.setAttribute("aria-hidden", "true");
  box.style.cssText = "position:absolute;left:-10000px;top:0;width:400px;visibility:hidden;pointer-events:none";
  document.body.append(box);
  try {
    for (let i = 0; i < strikes.length; i += PER_TASK) {
      await nextTask();
      for (const { font, rare } of strikes.slice(i, i + PER_TASK)) {
        const span = document.createElement("span");
        span.style.font = font;
        span.textContent = `Aa ${rare}`;
        box.append(span);
      }
      // Reading a size lays the box out now, in this task.
      void box.offsetHeight;
    }
  } finally {
    box.remove();
  }
}

/** How long after a chat shows (ms) its strikes are remembered: its code is coloured by then. */
const REMEMBER_AFTER_MS = 2_000;

/**
 * Remembers the strikes on screen a little after `screen` changes (a chat opened, read whole),
 * when the page is idle.
 */
export function useRememberedFontStrikes(screen: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new screen
  useEffect(() => {
    let cancel: (() => void) | undefined;
    let live = true;
    const timer = setTimeout(() => {
      import("./font-strikes-memory").then(
        (m) => {
          if (live) cancel = m.rememberWhenIdle();
        },
        () => {}, // not fetched (offline): the next screen asks again
      );
    }, REMEMBER_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
      cancel?.();
    };
  }, [screen]);
}
