/**
 * What travels: Grove's rows as sync records, one record per CouchDB document. Entries and blobs are
 * immutable (written once, a grow-only set: appends never conflict). A session is two mutable
 * records, its settings (`session`) and its position (`leaf`), so a rename on one device and a new
 * message on another both survive; a label is one. Mutable records carry a hybrid-clock stamp and
 * resolve last-writer-wins (lww.ts). A deleted session is a `session` record with `session: null`
 * and `final`, its tombstone. Settings, API keys, drafts and caches are never records.
 * Pure: blob bytes arrive here already as base64 text (the db layer reads the Blob).
 */
import type { ChatParams } from "../session/chat-params";
import type { Entry, ModelRef, Session } from "../session/entries";
import type { EntryId, SessionId } from "../session/ids";

/**
 * A session's synced settings: everything but its position (leafId, updatedAt). Records written
 * before `params`, `pinned`, `archived` and `piHeader` were synced lack them (as an unpinned chat's).
 */
export type SessionMeta = {
  id: SessionId;
  title: string;
  titleSource: "auto" | "user";
  createdAt: number;
  systemPrompt?: string;
  model?: ModelRef;
  parentSessionId?: SessionId;
  parentEntryId?: EntryId;
  importedFrom?: string;
  params?: ChatParams;
  pinned?: boolean;
  archived?: boolean;
  piHeader?: Record<string, unknown>;
};

/** The session fields the settings record carries; the others (leafId, updatedAt) are the leaf record's. */
const META_FIELDS = [
  "title",
  "titleSource",
  "createdAt",
  "systemPrompt",
  "model",
  "parentSessionId",
  "parentEntryId",
  "importedFrom",
  "params",
  "pinned",
  "archived",
  "piHeader",
] as const satisfies readonly (keyof SessionMeta)[];

/** A row of another table copied field by field; Blob fields travel as `{ $blob, type }` (base64). */
export type GenericRow = Readonly<Record<string, unknown>>;

export type SyncRecord =
  | { kind: "entry"; entry: Entry }
  | { kind: "blob"; id: string; row: GenericRow }
  | { kind: "session"; id: SessionId; hlc: string; final?: true; session: SessionMeta | null }
  | { kind: "leaf"; id: SessionId; hlc: string; leafId: EntryId | null; updatedAt: number }
  | { kind: "label"; id: EntryId; hlc: string; sessionId: SessionId; text: string | null };

export type SyncKind = SyncRecord["kind"];

const PREFIX: Record<SyncKind, string> = { entry: "e", blob: "b", session: "s", leaf: "f", label: "l" };

/** The stable local name of a record (`e:<entry id>`): what the opaque document id is made from. */
export function refOf(kind: SyncKind, id: string): string {
  return `${PREFIX[kind]}:${id}`;
}

export function recordRef(r: SyncRecord): string {
  return refOf(r.kind, r.kind === "entry" ? r.entry.id : r.id);
}

/** The session id a record belongs to, if any (blobs belong to none). */
export function recordSessionId(r: SyncRecord): SessionId | undefined {
  switch (r.kind) {
    case "entry":
      return r.entry.sessionId;
    case "session":
    case "leaf":
      return r.id;
    case "label":
      return r.sessionId;
    case "blob":
      return undefined;
  }
}

export function sessionMeta(s: Session): SessionMeta {
  const meta: SessionMeta = { id: s.id, title: s.title, titleSource: s.titleSource, createdAt: s.createdAt };
  if (s.systemPrompt !== undefined) meta.systemPrompt = s.systemPrompt;
  if (s.model !== undefined) meta.model = { providerId: s.model.providerId, modelId: s.model.modelId };
  if (s.parentSessionId !== undefined) meta.parentSessionId = s.parentSessionId;
  if (s.parentEntryId !== undefined) meta.parentEntryId = s.parentEntryId;
  if (s.importedFrom !== undefined) meta.importedFrom = s.importedFrom;
  // Appended after the older fields, and only when set: a chat without them keeps the fingerprint
  // it had before they were synced, so upgrading sends nothing again for it.
  if (s.params !== undefined) meta.params = s.params;
  if (s.pinned) meta.pinned = true;
  if (s.archived) meta.archived = true;
  if (s.piHeader !== undefined) meta.piHeader = s.piHeader;
  return meta;
}

/**
 * Fingerprints of a session's two mutable parts: a change in one means a new version of that record.
 * Fields in a fixed order, so equal content gives an equal string.
 */
export const metaDigest = (s: Session): string => JSON.stringify(sessionMeta(s));
export const leafDigest = (s: Session): string => JSON.stringify([s.leafId, s.updatedAt]);
export const labelDigest = (text: string | null): string => JSON.stringify(text);

/**
 * The session row after applying the winning versions of its two records onto what is stored here
 * (either may be missing: its record has not arrived yet), field by field: the settings record sets
 * every settings field (one it lacks is unset), the leaf record the position, and whatever else the
 * local row holds stays. Undefined while the settings are unknown.
 */
export function mergeSession(
  local: Session | undefined,
  meta: SessionMeta | undefined,
  leaf: { leafId: EntryId | null; updatedAt: number } | undefined,
): Session | undefined {
  const base = meta ?? (local ? sessionMeta(local) : undefined);
  if (!base) return undefined;
  const row: Record<string, unknown> = { ...local, id: base.id };
  for (const field of META_FIELDS) {
    if (base[field] === undefined) delete row[field];
    else row[field] = base[field];
  }
  row.leafId = leaf ? leaf.leafId : (local?.leafId ?? null);
  row.updatedAt = leaf ? leaf.updatedAt : (local?.updatedAt ?? base.createdAt);
  return row as Session;
}
