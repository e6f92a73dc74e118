/**
 * Sessions linked by handoff, as one chain (DESIGN §5–6): the sessions this one continues (walking
 * `parentSessionId` up), this one, and the sessions handed off from it and from those (children by
 * `parentSessionId`), generation by generation. Pure: takes the session rows.
 */
import type { Session } from "../session/entries";
import { compareIds, type SessionId } from "../session/ids";

export type LineageStep = {
  /** 0 for the session asked about; negative for the sessions it continues, positive for later ones. */
  readonly generation: number;
  /** Oldest first. A session handed off twice has two sessions in the next generation. */
  readonly sessions: readonly Session[];
};

const byCreated = (a: Session, b: Session) => a.createdAt - b.createdAt || compareIds(a.id, b.id);

/** The chain around `currentId`; empty when the session is not among `sessions`. */
export function sessionLineage(sessions: readonly Session[], currentId: SessionId): LineageStep[] {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const current = byId.get(currentId);
  if (!current) return [];
  const childrenOf = new Map<SessionId, Session[]>();
  for (const s of sessions) {
    if (!s.parentSessionId) continue;
    const list = childrenOf.get(s.parentSessionId);
    if (list) list.push(s);
    else childrenOf.set(s.parentSessionId, [s]);
  }
  const seen = new Set<SessionId>([current.id]);
  const before: LineageStep[] = [];
  for (let s = current.parentSessionId ? byId.get(current.parentSessionId) : undefined; s && !seen.has(s.id); ) {
    seen.add(s.id);
    before.push({ generation: -(before.length + 1), sessions: [s] });
    s = s.parentSessionId ? byId.get(s.parentSessionId) : undefined;
  }
  const after: LineageStep[] = [];
  let frontier: Session[] = [current];
  while (frontier.length > 0) {
    const next: Session[] = [];
    for (const s of frontier) {
      for (const child of childrenOf.get(s.id) ?? []) {
        if (seen.has(child.id)) continue;
        seen.add(child.id);
        next.push(child);
      }
    }
    if (next.length === 0) break;
    next.sort(byCreated);
    after.push({ generation: after.length + 1, sessions: next });
    frontier = next;
  }
  return [...before.reverse(), { generation: 0, sessions: [current] }, ...after];
}
