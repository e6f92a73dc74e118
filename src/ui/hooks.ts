/** Live reads for components: narrow indexed queries (db/live.ts) plus core derivations. */
import { useLiveQuery } from "dexie-react-hooks";
import { useMemo } from "react";
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

export function useSessionView(sessionId: SessionId | null): SessionView {
  // One query for both (see liveSessionWithEntries): read apart, another tab's append blanks the chat.
  const live = useLiveQuery(() => (sessionId ? liveSessionWithEntries(sessionId) : NO_SESSION), [sessionId]);
  // Right after a switch the hook may still hold the previous session's result: that is "loading".
  const data = live?.session && live.session.id !== sessionId ? undefined : live;
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
