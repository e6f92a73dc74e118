/**
 * The reply lane's first moments, apart from the reply engine (reply.ts) so the first screen has
 * them without its code: the placeholder shown at the Enter keydown (typing dots and Stop) and
 * Stop itself, which must work while the engine is still being fetched. Which replies are running
 * or about to start (their abort controllers) lives here too; reply.ts takes a placeholder over.
 */
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import type { AssistantPartial } from "../../providers/types";
import { type ActiveReply, useStreamStore } from "./stream-store";

/** The replies whose request is out (or being built), by chat. */
export const controllers = new Map<SessionId, AbortController>();
/** A reply's request is being built or is out in `sessionId` (one of chat-activity.ts's facts). */
export function replyRequested(sessionId: SessionId): boolean {
  return controllers.has(sessionId);
}

/**
 * Replies shown but not started yet, with the message they answer. Stop pressed meanwhile aborts
 * the controller: the request is never sent.
 */
const pendingControllers = new Map<SessionId, { controller: AbortController; parentId: EntryId }>();

/** The controller of the reply shown for `sessionId`, if any, now taken over by the reply that starts. */
export function takePendingController(sessionId: SessionId): AbortController | undefined {
  const pending = pendingControllers.get(sessionId);
  pendingControllers.delete(sessionId);
  return pending?.controller;
}

/**
 * Stop the reply in flight (or about to start) for a session; what arrived is kept and marked
 * "stopped". A reply still being prepared leaves the screen at once: nothing will be sent (its
 * aborted controller stays until the reply would have started, so it cannot start after all).
 */
export function stopReply(sessionId: SessionId): void {
  controllers.get(sessionId)?.abort();
  const pending = pendingControllers.get(sessionId);
  if (!pending) return;
  pending.controller.abort();
  setReply(sessionId, (r) => (r.phase === "preparing" ? null : r));
}

export function setReply(sessionId: SessionId, update: (r: ActiveReply) => ActiveReply | null): void {
  useStreamStore.setState((s) => {
    const current = s.replies[sessionId];
    if (!current) return s;
    const next = update(current);
    if (next === current) return s;
    if (next) return { replies: { ...s.replies, [sessionId]: next } };
    const { [sessionId]: _gone, ...rest } = s.replies;
    return { replies: rest };
  });
}

/**
 * Shows the reply to `parentId` at once (typing dots and Stop), before anything slow is awaited.
 * `runReply` takes it over; `clearPendingReply` removes it if no reply ever started.
 */
export function showPendingReply(sessionId: SessionId, parentId: EntryId): void {
  // Shown already (at the keydown, send/send.ts), maybe stopped since: the same reply, not a second one.
  // A placeholder left by a send that never reached its reply (a failed read) answers another
  // message: replaced, so its Stop cannot silence this one.
  if (pendingControllers.get(sessionId)?.parentId === parentId) return;
  if (controllers.has(sessionId) || useStreamStore.getState().replies[sessionId]?.phase === "unsaved") return;
  pendingControllers.set(sessionId, { controller: new AbortController(), parentId });
  const partial: AssistantPartial = { content: [], providerId: "", api: "anthropic-messages", model: "" };
  useStreamStore.setState((s) => ({
    replies: {
      ...s.replies,
      [sessionId]: {
        sessionId,
        checkpointId: newEntryId(),
        parentId,
        partial,
        retry: null,
        phase: "preparing",
        saveError: null,
      },
    },
  }));
}

/** Removes a placeholder that no reply took over (a preflight that failed, Stop before the request). */
export function clearPendingReply(sessionId: SessionId): void {
  pendingControllers.delete(sessionId);
  setReply(sessionId, (r) => (r.phase === "preparing" ? null : r));
}
