/**
 * Flipping versions in place (issue 27): a click on ‹ or › notes which version comes next and
 * where the clicked message sat in the scroll box; the message list, once the path shows that
 * version, scrolls so it sits at the same place. Without it the list followed the new path's end.
 */
import type { EntryId } from "../../core/session/ids";

export type VersionAnchor = {
  /** The version the click shows (a sibling of the clicked message). */
  readonly entryId: EntryId;
  /** Its row's top, in px from the top of the scroll box, when the user clicked. */
  readonly top: number;
};

let pending: VersionAnchor | null = null;

/** Called on the click, before the leaf moves: `from` is any element inside the clicked message's row. */
export function anchorVersion(entryId: EntryId, from: Element): void {
  const row = from.closest(".message-row");
  const scroller = from.closest(".message-scroll");
  if (!row || !scroller) return;
  pending = { entryId, top: row.getBoundingClientRect().top - scroller.getBoundingClientRect().top };
}

/** The anchor, once, when `isShown` says the path now shows its version. */
export function takeVersionAnchor(isShown: (entryId: EntryId) => boolean): VersionAnchor | null {
  if (!pending || !isShown(pending.entryId)) return null;
  const anchor = pending;
  pending = null;
  return anchor;
}
