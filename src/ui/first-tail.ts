/**
 * The open chat's end, read while the first screen's code is still arriving (main.tsx starts it as
 * soon as start-up knows which chat the URL names), so the app's first render draws the chat's last
 * messages in its first commit: read from the render, it took a commit, an IndexedDB round trip and
 * a second render more, on the path to the last message every cold open takes. The live read
 * (hooks.ts) still runs and keeps it current; while it reads the same, it answers this very object
 * and nothing renders again.
 */
import type { Entry, Session } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import { liveSessionTail } from "../db/live";
import { fillsFirstScreen } from "./chat/row-estimate";

/** A read of a chat's end (db/session-tail.ts), tagged with the chat it was made for. */
export type TailRead = {
  kind: "tail";
  forId: SessionId;
  session: Session | undefined;
  entries: Entry[];
  whole: boolean;
};

export async function readTail(sessionId: SessionId): Promise<TailRead> {
  const read = await liveSessionTail(sessionId, fillsFirstScreen);
  return { kind: "tail", forId: sessionId, session: read.session, entries: read.path, whole: read.whole };
}

let first: TailRead | undefined;

/** Reads `sessionId`'s end for the first render. A failed read is left to the live read, which reports it. */
export function readFirstTail(sessionId: SessionId | null): Promise<void> {
  if (sessionId === null) return Promise.resolve();
  return readTail(sessionId).then(
    (read) => {
      first = read;
    },
    () => {},
  );
}

/** The end of `sessionId` read at start, for the first render (undefined for any other chat). */
export function firstTail(sessionId: SessionId | null): TailRead | undefined {
  return first?.forId === sessionId ? first : undefined;
}

/**
 * `read`, or the read made at start when `read` says the same (the same session row, the same
 * entries: entries never change once written), so the live read's first answer renders nothing.
 * The read at start is let go after: it serves one first render.
 */
export function sameAsFirst(read: TailRead): TailRead {
  const start = first;
  first = undefined;
  if (
    !start ||
    start.forId !== read.forId ||
    start.whole !== read.whole ||
    start.entries.length !== read.entries.length ||
    JSON.stringify(start.session) !== JSON.stringify(read.session) ||
    start.entries.some((entry, i) => entry.id !== read.entries[i]?.id)
  ) {
    return read;
  }
  return start;
}
