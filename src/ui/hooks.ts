/** Live reads for components: narrow indexed queries (db/live.ts) plus core derivations. */
import { useLiveQuery } from "dexie-react-hooks";
import { useMemo } from "react";
import type { Entry, Session } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import { buildTreeIndex, pathToRoot, type TreeIndex } from "../core/session/tree";
import { liveEntries, liveSession } from "../db/live";

export type SessionView = {
  session: Session | undefined;
  index: TreeIndex;
  path: Entry[];
  /** false until the first read returned */
  loaded: boolean;
};

const EMPTY: Entry[] = [];

export function useSessionView(sessionId: SessionId | null): SessionView {
  const session = useLiveQuery(() => (sessionId ? liveSession(sessionId) : undefined), [sessionId]);
  const entries = useLiveQuery(() => (sessionId ? liveEntries(sessionId) : EMPTY), [sessionId]);
  const index = useMemo(() => buildTreeIndex(entries ?? EMPTY), [entries]);
  const leafId = session?.leafId ?? null;
  const path = useMemo(() => (leafId ? pathToRoot(index, leafId) : EMPTY), [index, leafId]);
  return { session, index, path, loaded: entries !== undefined && (sessionId === null || session !== undefined) };
}
