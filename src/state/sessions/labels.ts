/**
 * Labels: the user's bookmarks on entries (DESIGN §2), set from the history graph. Mutable
 * metadata beside the conversation, never part of it: nothing is appended and the leaf stays.
 */
import type { EntryId } from "../../core/session/ids";
import { setLabel } from "../../db/labels";
import { reportActionError } from "../app/report-error";

/** Longest label kept, in characters (a bookmark, not a note). */
export const LABEL_MAX_CHARS = 80;

/**
 * Sets (or, with blank text, removes) the label of an entry. Failures become a notice.
 * @returns whether it was saved
 */
export async function labelEntry(entryId: EntryId, text: string): Promise<boolean> {
  const clean = text.replace(/\s+/g, " ").trim().slice(0, LABEL_MAX_CHARS);
  try {
    await setLabel(entryId, clean === "" ? null : clean);
    return true;
  } catch (e) {
    reportActionError("The label could not be saved", e);
    return false;
  }
}
