/**
 * Composer drafts: what the user typed into a chat's composer and has not sent, one row per chat,
 * so it stays with its chat (never follows the user into another one) and survives a reload.
 * state/ writes it debounced (never per keystroke); an empty text deletes the row.
 */
import type { SessionId } from "../core/session/ids";
import { getDb } from "./schema";

export type { ComposerDraftRow } from "./rows";

/** The chat's unsent text, or "" when there is none. */
export async function getComposerDraft(sessionId: SessionId): Promise<string> {
  return (await getDb().composerDrafts.get(sessionId))?.text ?? "";
}

/** Stores the chat's unsent text (replacing the previous one); "" (or only whitespace) removes it. */
export async function saveComposerDraft(sessionId: SessionId, text: string, now: number = Date.now()): Promise<void> {
  const table = getDb().composerDrafts;
  if (text.trim() === "") await table.delete(sessionId);
  else await table.put({ sessionId, text, updatedAt: now });
}
