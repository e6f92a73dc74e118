/**
 * Undo a compaction (issue 11): while a compaction is the newest entry of its chat (the leaf, and
 * nothing sent after it), the leaf moves back to its parent, so the next request is the
 * uncompacted context again. Nothing is deleted: the entry stays in the tree and the graph.
 * Automatic compaction is then paused for the chat (the maintenance store's `paused`, lifted by a
 * manual compaction, a model change or Redo), or the next reply would redo it at once.
 * Redo (issue 27) puts the leaf back on the compaction while nothing was sent since the undo.
 */
import type { CompactionEntry, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, childrenOf, type TreeIndex } from "../../core/session/tree";
import { getSessionWithEntries, moveLeaf } from "../../db/entries";
import { StaleLeafError } from "../../db/errors";
import { chatActivity } from "../activity/chat-activity";
import { reportActionError } from "../app/report-error";
import { pushNotice } from "../app/ui-store";
import { liftPause, useMaintenanceStore } from "./maintenance-store";

export const UNDO_PAUSE_MESSAGE =
  "Automatic compaction paused after Undo: it resumes when you compact manually, switch models or press Redo.";

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
    // The pause is shown once, by the meter's badge; the notice offers the way back.
    if (result.kind === "undone")
      pushNotice("info", "Compaction undone", { action: { kind: "redo-compaction", sessionId, compactionId } });
    else if (result.reason === "busy") pushNotice("info", "Undo is not possible while a reply or compaction runs.");
    else pushNotice("info", "This compaction can no longer be undone: the chat has moved on.");
  } catch (e) {
    reportActionError("Could not undo the compaction", e);
  }
}

/**
 * Redo an undone compaction: the leaf goes back onto it, only if it is still where Undo left it (the
 * compaction's parent, nothing sent since), and the pause Undo set is lifted.
 */
export async function redoCompaction(sessionId: SessionId, compactionId: EntryId): Promise<UndoResult> {
  if (!chatActivity(sessionId).idle) return { kind: "refused", reason: "busy" };
  const { session, entries } = await getSessionWithEntries(sessionId);
  const entry = buildTreeIndex(entries).byId.get(compactionId);
  if (!session || entry?.type !== "compaction" || session.leafId !== entry.parentId) {
    return { kind: "refused", reason: "not_newest" };
  }
  try {
    await moveLeaf(sessionId, entry.id, entry.parentId);
  } catch (e) {
    if (e instanceof StaleLeafError) return { kind: "refused", reason: "not_newest" };
    throw e;
  }
  if (useMaintenanceStore.getState().paused[sessionId] === UNDO_PAUSE_MESSAGE) liftPause(sessionId);
  return { kind: "undone", leafId: entry.id };
}

/** The undo notice's Redo: says why a refused redo did nothing. */
export async function redoCompactionFromNotice(sessionId: SessionId, compactionId: EntryId): Promise<void> {
  try {
    const result = await redoCompaction(sessionId, compactionId);
    if (result.kind === "undone") return;
    pushNotice(
      "info",
      result.reason === "busy"
        ? "Redo is not possible while a reply or compaction runs."
        : "This compaction can no longer be redone: the chat has moved on. The history graph still has it.",
    );
  } catch (e) {
    reportActionError("Could not redo the compaction", e);
  }
}
