/** The live data the history graph is drawn from: the session view, its labels and handoff links. */
import { useLiveQuery } from "dexie-react-hooks";
import type { Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { liveChildSessions, liveLabels, liveSession } from "../../db/live";
import { type SessionView, useSessionView } from "../hooks";

export type GraphData = {
  view: SessionView;
  labels: ReadonlyMap<EntryId, string>;
  childSessions: readonly Session[];
  parentSession: Session | null;
};

const NO_LABELS: ReadonlyMap<EntryId, string> = new Map();
const NO_SESSIONS: readonly Session[] = [];

export function useGraphData(sessionId: SessionId | null): GraphData {
  const view = useSessionView(sessionId);
  const labels = useLiveQuery(() => (sessionId ? liveLabels(sessionId) : NO_LABELS), [sessionId]);
  const childSessions = useLiveQuery(() => (sessionId ? liveChildSessions(sessionId) : NO_SESSIONS), [sessionId]);
  const parentId = view.session?.parentSessionId ?? null;
  const parentSession = useLiveQuery(
    async () => (parentId ? ((await liveSession(parentId)) ?? null) : null),
    [parentId],
  );
  return {
    view,
    labels: labels ?? NO_LABELS,
    childSessions: childSessions ?? NO_SESSIONS,
    parentSession: parentSession ?? null,
  };
}
