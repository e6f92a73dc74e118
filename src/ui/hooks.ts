/** Live reads for components: narrow indexed queries (db/live.ts) plus core derivations. */
import { useLiveQuery } from "dexie-react-hooks";
import { useDeferredValue, useMemo } from "react";
import type { Entry, Session } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import { buildTreeIndex, pathToRoot, type TreeIndex } from "../core/session/tree";
import { liveSessionWithEntries } from "../db/live";

export type SessionView = {
  session: Session | undefined;
  index: TreeIndex;
  path: Entry[];
  /** false until the first read returned */
  loaded: boolean;
};

const EMPTY: Entry[] = [];
const NO_SESSION = { session: undefined, entries: EMPTY };

type Tagged = { forId: SessionId | null; session: Session | undefined; entries: Entry[] };
// The same read answered again (nothing changed) gets the same tagged object: no re-render.
const tagged = new WeakMap<object, Tagged>();
function tag(forId: SessionId | null, read: { session: Session | undefined; entries: Entry[] }): Tagged {
  const before = tagged.get(read);
  if (before?.forId === forId) return before;
  const result = { forId, ...read };
  tagged.set(read, result);
  return result;
}

export function useSessionView(sessionId: SessionId | null): SessionView {
  // One query for both (see liveSessionWithEntries): read apart, another tab's append blanks the chat.
  const live = useLiveQuery(
    async () => tag(sessionId, sessionId ? await liveSessionWithEntries(sessionId) : NO_SESSION),
    [sessionId],
  );
  // A new read is rendered as a transition: React renders it in slices, yielding to the page
  // between components, instead of one long task for the tree index, the path's rows and every
  // visible message's Markdown (opening a 2,000-message chat held the main thread 0.2-0.4 s).
  // Until that render is done the previous result stays on screen.
  const shown = useDeferredValue(live);
  // Right after a switch the hook still holds the previous query's result (another chat's, or the
  // empty "no chat" one, which would read as "not found"): until the new one arrives, that is loading.
  const data = shown?.forId === sessionId ? shown : undefined;
  // useLiveQuery answers undefined while loading, so a missing session is read as null: otherwise
  // "not found" (a deleted chat's bookmark) could never be told apart from "still loading".
  const found = data === undefined ? undefined : (data.session ?? null);
  const session = found ?? undefined;
  const entries = data?.entries;
  const index = useMemo(() => buildTreeIndex(entries ?? EMPTY), [entries]);
  const leafId = session?.leafId ?? null;
  const path = useMemo(() => (leafId ? pathToRoot(index, leafId) : EMPTY), [index, leafId]);
  return { session, index, path, loaded: entries !== undefined && found !== undefined };
}
