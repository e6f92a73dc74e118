/**
 * Sends in progress, per chat: held from the Enter until the reply and the maintenance it calls
 * for are done (a count: a send, an edit and the reply they start can overlap). One of the facts
 * chat-activity.ts answers "is this chat busy?" from; a queued message waits for all of it.
 */
import type { SessionId } from "../../core/session/ids";
import { defineStore } from "../app/store-registry";

/** Per chat: a reply with its maintenance in progress (count). */
export const useHoldStore = defineStore<{ busy: Record<string, number> }>(() => ({ busy: {} }));

/**
 * Marks a reply with its maintenance as in progress in `sessionId` (the reply, then any
 * compaction or handoff it calls for): a queued message waits for all of it. Returns the release.
 */
export function holdSession(sessionId: SessionId): () => void {
  const change = (by: number) =>
    useHoldStore.setState((s) => {
      const n = (s.busy[sessionId] ?? 0) + by;
      const { [sessionId]: _was, ...rest } = s.busy;
      return { busy: n > 0 ? { ...rest, [sessionId]: n } : rest };
    });
  change(1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    change(-1);
  };
}
