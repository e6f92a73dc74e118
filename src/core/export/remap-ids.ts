/**
 * "Keep both" on import: sessions that already exist get fresh ids, and every reference to an old
 * id is rewritten, so the copy is a separate tree that shares nothing with the original.
 *
 * The references are: an entry's `parentId` and `sessionId`, the session's `leafId`, a
 * compaction's `firstKeptEntryId` and `keptUserTurnIds` (and the entry ids in Grove's own
 * compaction `details`), a branch summary's `fromId`, a
 * continuation's `continues`, a handoff entry's `fromSessionId`/`fromEntryId`, a handoff
 * session's `parentSessionId`/`parentEntryId`, and the label keys.
 *
 * One `IdMap` serves the whole import, so a handoff link between two copied sessions of the same
 * file joins the two copies; a link from a copy to a session that is not copied is left as it is
 * (it names a session that exists, or a deleted one the UI already shows as gone). Sessions not
 * copied are returned exactly as they came.
 */
import { assertNever, type Entry, type Session } from "../session/entries";
import type { EntryId, SessionId } from "../session/ids";
import type { ExportedSession } from "./grove-json";

type IdMap = { sessions: Map<SessionId, SessionId>; entries: Map<EntryId, EntryId> };

export type IdFactories = { newSessionId: () => SessionId; newEntryId: () => EntryId };

/** Fresh ids for every session (and its entries) of `toRemap`, the others untouched; references rewritten throughout. */
export function remapSessions(
  sessions: readonly ExportedSession[],
  toRemap: ReadonlySet<SessionId>,
  ids: IdFactories,
): ExportedSession[] {
  const map: IdMap = { sessions: new Map(), entries: new Map() };
  for (const s of sessions) {
    if (!toRemap.has(s.session.id)) continue;
    map.sessions.set(s.session.id, ids.newSessionId());
    for (const e of s.entries) map.entries.set(e.id, ids.newEntryId());
  }
  return sessions.map((s) => (toRemap.has(s.session.id) ? remapSession(s, map) : s));
}

const sid = (map: IdMap, id: SessionId): SessionId => map.sessions.get(id) ?? id;
const eid = (map: IdMap, id: EntryId): EntryId => map.entries.get(id) ?? id;

function remapSession(s: ExportedSession, map: IdMap): ExportedSession {
  const session: Session = {
    ...s.session,
    id: sid(map, s.session.id),
    leafId: s.session.leafId === null ? null : eid(map, s.session.leafId),
  };
  if (s.session.parentSessionId !== undefined) session.parentSessionId = sid(map, s.session.parentSessionId);
  if (s.session.parentEntryId !== undefined) session.parentEntryId = eid(map, s.session.parentEntryId);
  const labels: Record<EntryId, string> = {};
  for (const [id, text] of Object.entries(s.labels)) labels[eid(map, id as EntryId)] = text;
  // Blob ids are content addresses, not entry ids: they stay.
  const entries = s.entries.map((e) => remapEntry(e, map));
  return s.blobs ? { session, entries, labels, blobs: s.blobs } : { session, entries, labels };
}

function remapEntry(e: Entry, map: IdMap): Entry {
  const base = {
    id: eid(map, e.id),
    sessionId: sid(map, e.sessionId),
    parentId: e.parentId === null ? null : eid(map, e.parentId),
  };
  switch (e.type) {
    case "message":
      return { ...e, ...base, ...(e.continues !== undefined ? { continues: eid(map, e.continues) } : {}) };
    case "compaction":
      return {
        ...e,
        ...base,
        firstKeptEntryId: e.firstKeptEntryId === null ? null : eid(map, e.firstKeptEntryId),
        keptUserTurnIds: e.keptUserTurnIds.map((id) => eid(map, id)),
        ...(e.details !== undefined ? { details: remapCompactionDetails(e.details, map) } : {}),
      };
    case "branch_summary":
      return { ...e, ...base, fromId: eid(map, e.fromId) };
    case "handoff":
      return { ...e, ...base, fromSessionId: sid(map, e.fromSessionId), fromEntryId: eid(map, e.fromEntryId) };
    case "model_change":
    case "thinking_level_change":
    case "custom":
    case "context_note":
    case "command":
      return { ...e, ...base };
    default:
      return assertNever(e, "entry");
  }
}

/**
 * Grove's own compaction details name entries too (the split turn's start, evicted and folded user
 * turns). Other tools' details (pi's file lists) are opaque and pass unchanged, as does anything
 * that does not have the shape Grove writes.
 */
function remapCompactionDetails(details: unknown, map: IdMap): unknown {
  if (!isRecord(details) || details.kind !== "grove-compaction") return details;
  const out: Record<string, unknown> = { ...details };
  if (typeof details.splitTurnStartId === "string")
    out.splitTurnStartId = eid(map, details.splitTurnStartId as EntryId);
  if (Array.isArray(details.evictedUserTurnIds)) {
    out.evictedUserTurnIds = details.evictedUserTurnIds.map((id) =>
      typeof id === "string" ? eid(map, id as EntryId) : id,
    );
  }
  if (Array.isArray(details.foldedUserTurns)) {
    out.foldedUserTurns = details.foldedUserTurns.map((t) =>
      isRecord(t) && typeof t.id === "string" ? { ...t, id: eid(map, t.id as EntryId) } : t,
    );
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
