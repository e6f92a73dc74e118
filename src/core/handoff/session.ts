/**
 * The session a handoff starts (DESIGN §2, §5): its row and its first entry, as data for
 * db/sessions.ts `createSession` (one transaction). The new session inherits the model and the
 * system prompt, links back to the old session and the entry the document was written from
 * (`parentSessionId`, `parentEntryId`), and its first entry is the `handoff` entry holding the
 * document. The old session is not touched: its "Handed off to …" link is derived by querying
 * sessions whose `parentSessionId` is it.
 *
 * Pure apart from fresh ids (`newSessionId` / `newEntryId` unless given): no I/O.
 */
import type { HandoffEntry, ModelRef, ModelUsage, Session } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";

const PART = /^(.*?)\s*\(part (\d+)\)$/;

/**
 * The new session's title: the old title with "(part 2)", or the next part number when the old
 * title already has one, so a chain of handoffs reads "Plan (part 2)", "Plan (part 3)", …
 */
export function handoffTitle(title: string): string {
  const clean = title.trim() || "Chat";
  const m = PART.exec(clean);
  if (m) return `${m[1]} (part ${Number(m[2]) + 1})`;
  return `${clean} (part 2)`;
}

export type HandoffSessionInput = {
  from: Session;
  /** The document as the user approved it (possibly edited). */
  document: string;
  /** The entry of `from` the document was written from (its leaf at the time). */
  fromEntryId: EntryId;
  /** The usage the document's request reported (recorded on the handoff entry). */
  sideUsage?: readonly ModelUsage[];
  /** The model to inherit when `from` follows the global default: the model it was using. */
  defaultModel: ModelRef;
  now: number;
  ids?: { sessionId?: SessionId; entryId?: EntryId };
};

export function newHandoffSession(input: HandoffSessionInput): { session: Session; entry: HandoffEntry } {
  const { from, now } = input;
  const sessionId = input.ids?.sessionId ?? newSessionId();
  const entry: HandoffEntry = {
    id: input.ids?.entryId ?? newEntryId(),
    sessionId,
    parentId: null,
    createdAt: now,
    type: "handoff",
    document: input.document,
    fromSessionId: from.id,
    fromEntryId: input.fromEntryId,
    ...(input.sideUsage && input.sideUsage.length > 0 ? { sideUsage: input.sideUsage } : {}),
  };
  const session: Session = {
    id: sessionId,
    title: handoffTitle(from.title),
    titleSource: "auto",
    createdAt: now,
    updatedAt: now,
    leafId: entry.id,
    model: { ...(from.model ?? input.defaultModel) },
    ...(from.systemPrompt !== undefined ? { systemPrompt: from.systemPrompt } : {}),
    parentSessionId: from.id,
    parentEntryId: input.fromEntryId,
  };
  return { session, entry };
}
