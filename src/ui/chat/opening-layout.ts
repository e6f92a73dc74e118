/**
 * How the message list lays out a chat that is still opening (tail-first, ui/hooks.ts): the end of
 * its path is drawn first and the rest of the path arrives above it. Pure: no React, no DOM; the
 * options are the virtualizer's (@tanstack/virtual-core), which keeps the place by row key.
 */
import type { Entry } from "../../core/session/entries";

/** The "Loading earlier messages…" line above the end of a chat still opening. */
export const LOADING_EARLIER_PX = 40;
/** Rows drawn beyond the viewport once the chat is open (scrolling finds them ready). */
export const OVERSCAN_ROWS = 6;

/** The path on screen is the end of a longer one whose start is still being read. */
export function earlierLoading(path: readonly Entry[], complete: boolean): boolean {
  return !complete && path.length > 0 && path[0]!.parentId !== null;
}

/**
 * The virtualizer options that change while a chat opens:
 * - no overscan until the whole tree is in: each row above the viewport is Markdown to render
 *   before the last message can show;
 * - room above the rows for the "Loading earlier messages…" line;
 * - `anchorTo: "end"`: when rows change at either end (the rest of the path arriving above, a
 *   message below), the row at the top of the viewport keeps its place, found by its key, so the
 *   reader of the chat's end, or of a message above it, does not see the list jump.
 */
export function openingLayout(path: readonly Entry[], complete: boolean) {
  return {
    overscan: complete ? OVERSCAN_ROWS : 0,
    paddingStart: earlierLoading(path, complete) ? LOADING_EARLIER_PX : 0,
    anchorTo: "end" as const,
  };
}
