/**
 * "Is this chat busy?", answered in one place from one set of facts:
 * - the maintenance lock (`useMaintenanceStore.op`): a compaction, branch summary or handoff runs
 *   in this chat;
 * - the send holds (holds.ts): a send, its reply or the maintenance the reply calls for is in
 *   progress here;
 * - the streaming lane (`useStreamStore.replies`): a reply is shown here, being prepared, streaming,
 *   or finished and refused by the storage ("unsaved", kept on screen until it is saved);
 * - the reply lane (reply-lane.ts): a reply's request is being built or is out.
 * Every question about it (may a message go out now, may maintenance run, must background work
 * wait) is one field of `chatActivity`.
 */
import { useSyncExternalStore } from "react";
import type { SessionId } from "../../core/session/ids";
import { useMaintenanceStore } from "../maintenance/maintenance-store";
import { replyRequested } from "../reply/reply-lane";
import { type ActiveReply, useStreamStore } from "../reply/stream-store";
import { useHoldStore } from "./holds";

export type ChatActivity = {
  /** The maintenance lock is held by an operation on this chat. */
  maintaining: boolean;
  /** A send with its reply and maintenance is in progress (holds.ts). */
  held: boolean;
  /** The reply shown in this chat, by phase; null when none is. */
  reply: ActiveReply["phase"] | null;
  /** A reply's request is being built or streams. */
  requesting: boolean;
  /** Nothing runs here that a message sent now would race: it goes out at once (else it is queued). */
  idle: boolean;
  /**
   * A reply is in flight, or finished but not saved yet (disk full): maintenance now would fold
   * the path without it and move the leaf, hiding it once it is written.
   */
  replying: boolean;
  /** A message is being stored or answered (a reply kept on screen unsaved is not): background work waits. */
  sending: boolean;
};

export function chatActivity(sessionId: SessionId): ChatActivity {
  const maintaining = useMaintenanceStore.getState().op?.sessionId === sessionId;
  const held = (useHoldStore.getState().busy[sessionId] ?? 0) > 0;
  const shown = useStreamStore.getState().replies[sessionId];
  const reply = shown === undefined ? null : shown.phase;
  const requesting = replyRequested(sessionId);
  return {
    maintaining,
    held,
    reply,
    requesting,
    idle: !maintaining && !held && reply === null,
    replying: requesting || reply === "unsaved",
    sending: held || (reply !== null && reply !== "unsaved"),
  };
}

/** Some chat is sending (`chatActivity(…).sending`): the chats with a hold or a reply shown. */
export function anyChatSending(): boolean {
  const ids = new Set([
    ...Object.keys(useHoldStore.getState().busy),
    ...Object.keys(useStreamStore.getState().replies),
  ]);
  for (const id of ids) if (chatActivity(id as SessionId).sending) return true;
  return false;
}

/** Calls `listener` whenever a stored fact of `chatActivity` may have changed. Returns the stop function. */
export function onActivityChange(listener: () => void): () => void {
  const stops = [useMaintenanceStore, useHoldStore, useStreamStore].map((store) => store.subscribe(listener));
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * One answer from `chatActivity` for a component, re-rendered when it changes. `pick` must return
 * a value compared by identity (a boolean, a phase); `requesting` is no stored fact, so it is read
 * afresh only when a store changes.
 */
export function useChatActivity<T>(sessionId: SessionId, pick: (activity: ChatActivity) => T): T {
  const read = () => pick(chatActivity(sessionId));
  return useSyncExternalStore(onActivityChange, read, read);
}
