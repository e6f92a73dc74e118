/**
 * Moving about the tree without writing anything but the leaf: Branch from here, back to the
 * newest message below a point, and the other versions (siblings) of an entry. Switch here, which
 * may write a branch summary, is a maintenance operation (maintenance/switch-branch.ts).
 */
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, deepestLeafFrom } from "../../core/session/tree";
import { versionsOf } from "../../core/session/versions";
import { getEntries, moveLeaf } from "../../db/entries";
import { reportActionError } from "../app/report-error";
import { useUiStore } from "../app/ui-store";

/**
 * Branch from here (DESIGN §5): on an assistant (or any non-user) entry, the next message continues
 * from it; on a user message it is Edit.
 */
export async function branchFromHere(sessionId: SessionId, entry: Entry): Promise<void> {
  if (entry.type === "message" && entry.role === "user") {
    useUiStore.setState({ editingId: entry.id });
    return;
  }
  try {
    await moveLeaf(sessionId, entry.id);
    useUiStore.setState((s) => ({ composerFocus: s.composerFocus + 1 }));
  } catch (e) {
    reportActionError("Could not branch here", e);
  }
}

/**
 * From a position in the middle of the tree (after Branch from here), back down to the newest leaf
 * below it: the conversation as it was before the user branched.
 */
export async function returnToLatest(sessionId: SessionId, fromId: EntryId): Promise<void> {
  try {
    const index = buildTreeIndex(await getEntries(sessionId));
    await moveLeaf(sessionId, deepestLeafFrom(index, fromId));
  } catch (e) {
    reportActionError("Could not return to the latest message", e);
  }
}

/** Show another version (core/session/versions.ts) of an entry: the leaf moves to the newest leaf below it. */
export async function showVersion(sessionId: SessionId, entryId: EntryId, step: -1 | 1): Promise<void> {
  try {
    const index = buildTreeIndex(await getEntries(sessionId));
    const { siblings, position } = versionsOf(index, entryId);
    const next = siblings[position - 1 + step];
    if (!next) return;
    await moveLeaf(sessionId, deepestLeafFrom(index, next.id));
  } catch (e) {
    reportActionError("Could not switch versions", e);
  }
}
