import { useLiveQuery } from "dexie-react-hooks";
import type { Session } from "../../core/session/entries";
import { liveChildSessions, liveSession } from "../../db/live";
import { openSession } from "../../state/sessions/sessions";

function SessionLink({ session, prefix }: { session: Session; prefix: string }) {
  return (
    <a
      className="session-link"
      href={`#/s/${encodeURIComponent(session.id)}`}
      onClick={(e) => {
        e.preventDefault();
        openSession(session.id);
      }}
    >
      {prefix} {session.title}
    </a>
  );
}

/**
 * Handoff links (DESIGN §5): "Continued from <title>" in a session started by a handoff, "Handed
 * off to <title>" in the session it came from (derived: sessions whose parent is this one).
 */
export function SessionLinks({ session }: { session: Session | undefined }) {
  const parentId = session?.parentSessionId;
  const sessionId = session?.id;
  // null: the parent is not in this browser (deleted, or this chat was imported without it);
  // undefined: still reading, or no parent at all.
  const parent = useLiveQuery(async () => (parentId ? ((await liveSession(parentId)) ?? null) : undefined), [parentId]);
  const children = useLiveQuery(() => (sessionId ? liveChildSessions(sessionId) : []), [sessionId]);
  if (!session || (parent === undefined && !children?.length)) return null;
  // Not named "…sessions": the session list owns the "Sessions" landmark name (UI contract).
  return (
    <nav className="session-links" aria-label="Handoff links">
      {parent && (
        <span>
          <span aria-hidden="true">↩ </span>
          <SessionLink session={parent} prefix="Continued from" />
        </span>
      )}
      {parent === null && (
        <span className="muted" title="The chat this one was handed off from was deleted, or not imported here">
          <span aria-hidden="true">↩ </span>Continued from an earlier chat that is no longer here
        </span>
      )}
      {children?.map((child) => (
        <span key={child.id}>
          <span aria-hidden="true">↪ </span>
          <SessionLink session={child} prefix="Handed off to" />
        </span>
      ))}
    </nav>
  );
}
