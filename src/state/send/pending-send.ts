/**
 * The message the user just sent (or saved as an edit), or the reply being regenerated, on screen
 * before it is stored. A send, an edit or Regenerate puts it here in the same task as the keydown
 * or click (with the reply placeholder, reply-lane.ts), so both render in the next frame; the
 * database writes come after. The chat view shows it under its parent until its own live read
 * has the entry (same id: the row is replaced in place, never remounted), then drops it (`settle`).
 * A send that cannot be stored removes it (`dropSend`) and the composer gets the text back.
 *
 * State only; the send itself is state/send/send.ts. No I/O here.
 */

import type { MessageEntry, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { defineStore } from "../app/store-registry";

/**
 * Where the message goes: a chat created with it (its row is written with the message), an existing
 * chat (under its leaf), or beside `replaces` as its new version (Edit: it takes that message's
 * place on the path, and what was below it leaves the screen).
 */
export type SendTarget =
  | { kind: "new_chat"; session: Session }
  | { kind: "existing_chat" }
  | { kind: "edit"; replaces: EntryId };

/**
 * Regenerate: the reply `replaces` (and what is below it) leaves the path, which ends at its parent
 * `parentId` again, where the new reply's placeholder shows. No entry of its own: the leaf moves.
 */
export type PendingRegenerate = { sessionId: SessionId; replaces: EntryId; parentId: EntryId };

type Phase = "saving" | "saved";

/**
 * "saving": shown, being written; "saved": written, shown from memory until the chat on screen
 * has read it back (then `settle` removes it).
 */
export type PendingSend =
  | { phase: Phase; entry: MessageEntry; target: SendTarget }
  | { phase: Phase; regenerate: PendingRegenerate };

/** What a pending change is known by: the message's id, or the id of the reply being regenerated. */
export const pendingId = (p: PendingSend): EntryId => ("regenerate" in p ? p.regenerate.replaces : p.entry.id);

/**
 * Per chat: at most one (a second send in a busy chat is queued, never shown here). `returnedEdits`:
 * the text of an edit that could not be stored, by the message it edited, for its editor to show again.
 */
export const usePendingSendStore = defineStore<{
  sends: Record<string, PendingSend>;
  returnedEdits: Record<string, string>;
}>(() => ({ sends: {}, returnedEdits: {} }));

function update(sessionId: SessionId, next: (before: PendingSend | undefined) => PendingSend | undefined): void {
  usePendingSendStore.setState((s) => {
    const before = s.sends[sessionId];
    const value = next(before);
    if (value === before) return s;
    const { [sessionId]: _was, ...rest } = s.sends;
    return { sends: value ? { ...rest, [sessionId]: value } : rest };
  });
}

/** Shows `entry` in its chat at once (it replaces whatever was pending there). */
export function beginSend(entry: MessageEntry, target: SendTarget): void {
  if (target.kind === "edit") takeReturnedEdit(target.replaces);
  update(entry.sessionId, () => ({ phase: "saving", entry, target }));
}

/** Shows the path cut at the parent of the reply being regenerated, at once. */
export function beginRegenerate(regenerate: PendingRegenerate): void {
  update(regenerate.sessionId, () => ({ phase: "saving", regenerate }));
}

/** `id` (pendingId) is stored: it stays on screen until the chat's live read has it. */
export function sendSaved(sessionId: SessionId, id: EntryId): void {
  update(sessionId, (p) => (p?.phase === "saving" && pendingId(p) === id ? { ...p, phase: "saved" } : p));
}

/** `id` could not be stored (or was refused): it leaves the screen. */
export function dropSend(sessionId: SessionId, id: EntryId): void {
  update(sessionId, (p) => (p && pendingId(p) === id ? undefined : p));
}

/** The chat on screen has read `id` back: the copy from memory is no longer needed. */
export function settleSend(sessionId: SessionId, id: EntryId): void {
  update(sessionId, (p) => (p?.phase === "saved" && pendingId(p) === id ? undefined : p));
}

/** An edit of `editedId` could not be stored: its editor opens again with `text`. */
export function returnEdit(editedId: EntryId, text: string): void {
  usePendingSendStore.setState((s) => ({ returnedEdits: { ...s.returnedEdits, [editedId]: text } }));
}

/** Forgets the returned text of an edit of `editedId` (saved again, or cancelled). */
export function takeReturnedEdit(editedId: EntryId): void {
  usePendingSendStore.setState((s) => {
    if (!(editedId in s.returnedEdits)) return s;
    const { [editedId]: _was, ...rest } = s.returnedEdits;
    return { returnedEdits: rest };
  });
}

/** Tests. */
export function resetPendingSends(): void {
  usePendingSendStore.setState({ sends: {}, returnedEdits: {} });
}
