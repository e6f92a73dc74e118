/**
 * Undo a compaction (issue 11): while a compaction is the newest entry of its chat (the leaf, and
 * nothing sent after it), the leaf moves back to its parent, so the next request is the
 * uncompacted context again. Nothing is deleted: the entry stays in the tree and the graph.
 * Automatic compaction is then paused for the chat (the maintenance store's `paused`, lifted by a
 * manual compaction or a model change), or the next reply would redo it at once.
 */
import type { CompactionEntry, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, childrenOf, type TreeIndex } from "../../core/session/tree";
import { getSessionWithEntries, moveLeaf } from "../../db/entries";
import { StaleLeafError } from "../../db/errors";
import { chatActivity } from "../activity/chat-activity";
import { reportActionError } from "../app/report-error";
import { pushNotice } from "../app/ui-store";
import { useMaintenanceStore } from "./maintenance-store";

export const UNDO_PAUSE_MESSAGE =
  "Automatic compaction paused after Undo: it resumes when you compact manually or switch models.";

type UndoRefusal = "busy" | "not_newest";
export type UndoResult = { kind: "undone"; leafId: EntryId | null } | { kind: "refused"; reason: UndoRefusal };

/**
 * The compaction that may be undone: the session's leaf is this compaction and nothing hangs
 * below it (after "Branch from here" back onto a compaction that has replies, Undo would not
 * restore what the user just saw). One rule for the card's button and the action.
 */
export function undoableCompaction(
  session: Session | undefined,
  index: TreeIndex,
  compactionId: EntryId,
): CompactionEntry | null {
  if (!session || session.leafId !== compactionId) return null;
  const entry = index.byId.get(compactionId);
  if (entry?.type !== "compaction" || entry.sessionId !== session.id) return null;
  return childrenOf(index, compactionId).length === 0 ? entry : null;
}

/** Refused (nothing changes) while a reply or maintenance runs in the chat, or once the compaction is no longer newest. */
export async function undoCompaction(sessionId: SessionId, compactionId: EntryId): Promise<UndoResult> {
  if (!chatActivity(sessionId).idle) return { kind: "refused", reason: "busy" };
  const { session, entries } = await getSessionWithEntries(sessionId);
  const entry = undoableCompaction(session, buildTreeIndex(entries), compactionId);
  if (!entry) return { kind: "refused", reason: "not_newest" };
  // A reply could have started while the tree was read.
  if (!chatActivity(sessionId).idle) return { kind: "refused", reason: "busy" };
  // Only if the compaction is still the leaf (another tab may have sent after it meanwhile).
  try {
    await moveLeaf(sessionId, entry.parentId, entry.id);
  } catch (e) {
    if (e instanceof StaleLeafError) return { kind: "refused", reason: "not_newest" };
    throw e;
  }
  useMaintenanceStore.setState((s) => ({ paused: { ...s.paused, [sessionId]: UNDO_PAUSE_MESSAGE } }));
  return { kind: "undone", leafId: entry.parentId };
}

/** The card's button: reports a failure, and says why a refused undo did nothing. */
export async function undoCompactionFromCard(sessionId: SessionId, compactionId: EntryId): Promise<void> {
  try {
    const result = await undoCompaction(sessionId, compactionId);
    if (result.kind === "undone") pushNotice("info", UNDO_PAUSE_MESSAGE);
    else if (result.reason === "busy") pushNotice("info", "Undo is not possible while a reply or compaction runs.");
    else pushNotice("info", "This compaction can no longer be undone: the chat has moved on.");
  } catch (e) {
    reportActionError("Could not undo the compaction", e);
  }
}
