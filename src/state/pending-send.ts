/**
 * The message the user just sent, on screen before it is stored. A send puts it here in the same
 * task as the Enter keydown (with the reply placeholder, reply.ts), so both render in the next frame;
 * the database writes come after. The chat view shows it under its parent until its own live read
 * has the entry (same id: the row is replaced in place, never remounted), then drops it (`settle`).
 * A send that cannot be stored removes it (`dropSend`) and the composer gets the text back.
 *
 * State only; the send itself is state/actions/chat.ts. No I/O here.
 */
import { create } from "zustand";
import type { MessageEntry, Session } from "../core/session/entries";
import type { EntryId, SessionId } from "../core/session/ids";

/** Where the message goes: a chat created with it (its row is written with the message), or an existing chat. */
export type SendTarget = { kind: "new_chat"; session: Session } | { kind: "existing_chat" };

/**
 * "saving": shown, being written; "saved": written, shown from memory until the chat on screen
 * has read it back (then `settle` removes it).
 */
export type PendingSend =
  | { phase: "saving"; entry: MessageEntry; target: SendTarget }
  | { phase: "saved"; entry: MessageEntry; target: SendTarget };

/** Per chat: at most one (a second send in a busy chat is queued, never shown here). */
export const usePendingSendStore = create<{ sends: Record<string, PendingSend> }>(() => ({ sends: {} }));

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
  update(entry.sessionId, () => ({ phase: "saving", entry, target }));
}

/** `entryId` is stored: it stays on screen until the chat's live read has it. */
export function sendSaved(sessionId: SessionId, entryId: EntryId): void {
  update(sessionId, (p) => (p?.phase === "saving" && p.entry.id === entryId ? { ...p, phase: "saved" } : p));
}

/** `entryId` could not be stored (or was refused): it leaves the screen. */
export function dropSend(sessionId: SessionId, entryId: EntryId): void {
  update(sessionId, (p) => (p?.entry.id === entryId ? undefined : p));
}

/** The chat on screen has read `entryId` back: the copy from memory is no longer needed. */
export function settleSend(sessionId: SessionId, entryId: EntryId): void {
  update(sessionId, (p) => (p?.phase === "saved" && p.entry.id === entryId ? undefined : p));
}

/** Tests. */
export function resetPendingSends(): void {
  usePendingSendStore.setState({ sends: {} });
}
