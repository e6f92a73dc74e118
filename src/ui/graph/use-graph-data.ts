/** The live data the history graph is drawn from: the session view, its labels and handoff links. */
import { useLiveQuery } from "dexie-react-hooks";
import { useMemo } from "react";
import type { Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { liveChildSessions, liveLabels, liveSession } from "../../db/live";
import type { SessionView } from "../hooks";

export type GraphData = {
  view: SessionView;
  labels: ReadonlyMap<EntryId, string>;
  childSessions: readonly Session[];
  parentSession: Session | null;
};

const NO_LABELS: ReadonlyMap<EntryId, string> = new Map();
const NO_SESSIONS: readonly Session[] = [];

/** `view` is the open session as App reads it (shared with the chat); the rest is the graph's own. */
export function useGraphData(sessionId: SessionId | null, view: SessionView): GraphData {
  const labels = useLiveQuery(() => (sessionId ? liveLabels(sessionId) : NO_LABELS), [sessionId]);
  const childSessions = useLiveQuery(() => (sessionId ? liveChildSessions(sessionId) : NO_SESSIONS), [sessionId]);
  const parentId = view.session?.parentSessionId ?? null;
  const parentSession = useLiveQuery(
    async () => (parentId ? ((await liveSession(parentId)) ?? null) : null),
    [parentId],
  );
  // The sessions table changes with every message anywhere (updatedAt): keep the same array while
  // what the graph shows of it (id, title, the entry it hangs from) is the same, so the model is
  // not rebuilt for nothing.
  const linksKey = (childSessions ?? NO_SESSIONS)
    .map((c) => `${c.id}\u0000${c.title}\u0000${c.parentEntryId}`)
    .join("\u0001");
  // biome-ignore lint/correctness/useExhaustiveDependencies: linksKey is the content of childSessions
  const stableChildren = useMemo(() => childSessions ?? NO_SESSIONS, [linksKey]);
  const parentTitle = parentSession?.title;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only its id and title are shown
  const stableParent = useMemo(() => parentSession ?? null, [parentSession?.id, parentTitle]);
  return { view, labels: labels ?? NO_LABELS, childSessions: stableChildren, parentSession: stableParent };
}
