import { useLiveQuery } from "dexie-react-hooks";
import { useMemo } from "react";
import { sessionLineage } from "../../core/graph/lineage";
import type { SessionId } from "../../core/session/ids";
import { formatTime } from "../../core/time";
import { liveSessions } from "../../db/live";
import { openLinkedSession } from "./graph-actions";

const when = (ms: number) => formatTime(ms, "date");

/**
 * "Session lineage": the chats linked by handoff, as one chain, oldest first: the chats this one
 * continues, this one, and the chats handed off from it. Each opens with a click.
 */
export function LineageView({ sessionId }: { sessionId: SessionId }) {
  const sessions = useLiveQuery(() => liveSessions(), []);
  const steps = useMemo(() => (sessions ? sessionLineage(sessions, sessionId) : []), [sessions, sessionId]);
  if (!sessions) return <div className="graph-lineage" />;
  const alone = steps.length <= 1;
  return (
    <nav className="graph-lineage" aria-label="Session lineage">
      {alone && (
        <p className="muted small graph-lineage-note">
          This chat has no handoffs yet. When it hands off to a fresh chat (or continues one), the chain shows here.
        </p>
      )}
      <ol className="graph-lineage-chain">
        {steps.map((step) => (
          <li key={step.generation} className="graph-lineage-step">
            {step.sessions.map((s) => {
              const current = s.id === sessionId;
              return (
                <button
                  key={s.id}
                  type="button"
                  className={`graph-lineage-card${current ? " current" : ""}`}
                  aria-current={current ? "page" : undefined}
                  onClick={() => !current && openLinkedSession(s.id)}
                >
                  <span className="graph-lineage-title">{s.title}</span>
                  <span className="graph-lineage-meta">
                    {current ? "This chat" : step.generation < 0 ? "Earlier part" : "Continued in"} ·{" "}
                    {when(s.createdAt)}
                  </span>
                </button>
              );
            })}
          </li>
        ))}
      </ol>
    </nav>
  );
}
