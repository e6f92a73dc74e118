/**
 * A reply the browser's storage refused (disk full) is not lost: it stays on screen and in memory,
 * saying so (the streaming lane's `phase: "unsaved"`), and is written as soon as a later attempt
 * succeeds (every UNSAVED_RETRY_MS, and at once with "Save now"). runReply (reply.ts) hands its
 * finished reply to `saveReply`; this module keeps what could not be saved.
 */

import { isQuotaError } from "../../core/quota-error";
import type { MessageEntry } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { finalizeCheckpoint, saveCheckpoint } from "../../db/reply-checkpoints";
import type { ReplyCheckpoint } from "../../db/rows";
import { pushNotice } from "../app/ui-store";
import { setReply } from "./reply-lane";

/** A reply the storage refused is tried again at this pace (and at once with "Save now"). */
const UNSAVED_RETRY_MS = 5_000;

export const STORAGE_FULL_TEXT =
  "Not saved: the browser's storage for Grove is full. The reply is kept here; Grove saves it as soon as there is room (free space by deleting old chats). Don't reload or close this tab until then.";

const unsavedTimers = new Map<SessionId, ReturnType<typeof setInterval>>();

/**
 * Writes the finished reply `entry` (its checkpoint becomes the entry; the leaf moves to it only if it
 * is still the reply's parent). "kept": the storage is full, and the reply is kept on screen and in
 * memory until it can be saved. Any other failure is thrown. Either way its checkpoint first gets the
 * whole reply, not just the last checkpoint, if that table still takes it (best effort: recovery
 * after a reload then brings back everything the user saw).
 */
export async function saveReply(entry: MessageEntry, checkpoint: () => ReplyCheckpoint): Promise<"saved" | "kept"> {
  try {
    await finalizeCheckpoint(entry.id, entry, { kind: "move-if-leaf-is", expected: entry.parentId, to: entry.id });
    return "saved";
  } catch (e) {
    await saveCheckpoint(checkpoint()).catch(() => {});
    if (!isQuotaError(e)) throw e;
    keepUnsaved(entry.sessionId, entry);
    return "kept";
  }
}

/**
 * The reply `entry` could not be written (quota): show it as unsaved (its last partial, which is
 * the entry's content) and try again on a timer.
 */
function keepUnsaved(sessionId: SessionId, entry: MessageEntry): void {
  setReply(sessionId, (r) => ({
    ...r,
    phase: "unsaved",
    saveError: STORAGE_FULL_TEXT,
    retry: null,
  }));
  unsavedEntries.set(sessionId, entry);
  if (!unsavedTimers.has(sessionId)) {
    unsavedTimers.set(
      sessionId,
      setInterval(() => void saveUnsaved(sessionId), UNSAVED_RETRY_MS),
    );
  }
}

const unsavedEntries = new Map<SessionId, MessageEntry>();
const unsavedWaiters = new Map<SessionId, Array<() => void>>();

/**
 * Tries again to write the reply the storage refused ("Save now", and every UNSAVED_RETRY_MS).
 * Resolves true once it is saved (the placeholder goes, the entry shows in its place).
 */
export async function saveUnsaved(sessionId: SessionId): Promise<boolean> {
  const entry = unsavedEntries.get(sessionId);
  if (!entry) return true;
  try {
    await finalizeCheckpoint(entry.id, entry, { kind: "move-if-leaf-is", expected: entry.parentId, to: entry.id });
  } catch (e) {
    if (isQuotaError(e)) return false;
    // Anything else (e.g. the chat was deleted meanwhile): there is nothing left to save it into.
    pushNotice("error", `The reply could not be saved: ${e instanceof Error ? e.message : String(e)}`);
  }
  unsavedEntries.delete(sessionId);
  clearInterval(unsavedTimers.get(sessionId));
  unsavedTimers.delete(sessionId);
  setReply(sessionId, (r) => (r.phase === "unsaved" ? null : r));
  for (const resolve of unsavedWaiters.get(sessionId) ?? []) resolve();
  unsavedWaiters.delete(sessionId);
  return true;
}

/** Resolves when the session has no reply waiting to be saved (at once when it has none). */
export function whenSaved(sessionId: SessionId): Promise<void> {
  if (!unsavedEntries.has(sessionId)) return Promise.resolve();
  return new Promise((resolve) => {
    unsavedWaiters.set(sessionId, [...(unsavedWaiters.get(sessionId) ?? []), resolve]);
  });
}
