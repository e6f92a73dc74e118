/**
 * The composer's unsent text, per chat (db/composer-drafts.ts): restored when the chat opens,
 * written debounced while the user types (never per keystroke), flushed when the user leaves the
 * chat, sends, or the page is hidden. The empty "new chat" screen keeps its own draft too.
 */
import type { SessionId } from "../../core/session/ids";
import { getComposerDraft, saveComposerDraft } from "../../db/composer-drafts";

/** Typing pauses this long (ms) before the draft is written. */
export const COMPOSER_DRAFT_DEBOUNCE_MS = 400;

/** Where the new-chat screen's draft is kept (no session exists yet). */
const NEW_CHAT = "new-chat" as SessionId;

const pending = new Map<SessionId, { text: string; timer: ReturnType<typeof setTimeout> }>();

/** The composer draft row of a chat, or of the new-chat screen (`null`). */
export const composerDraftKey = (sessionId: SessionId | null): SessionId => sessionId ?? NEW_CHAT;
const keyOf = composerDraftKey;

/** The chat's unsent text ("" when none); a write still pending wins over the stored one. */
export async function loadComposerDraft(sessionId: SessionId | null): Promise<string> {
  const key = keyOf(sessionId);
  const waiting = pending.get(key);
  if (waiting) return waiting.text;
  try {
    return await getComposerDraft(key);
  } catch {
    return ""; // a draft is a convenience: an unreadable one is an empty composer, not an error
  }
}

/** The user typed: write the chat's draft once typing pauses. */
export function composerDraftChanged(sessionId: SessionId | null, text: string): void {
  const key = keyOf(sessionId);
  const before = pending.get(key);
  if (before) clearTimeout(before.timer);
  pending.set(key, { text, timer: setTimeout(() => void flushComposerDraft(sessionId), COMPOSER_DRAFT_DEBOUNCE_MS) });
}

/** Writes the chat's pending draft now (leaving the chat, page hidden); a no-op when none is pending. */
export async function flushComposerDraft(sessionId: SessionId | null): Promise<void> {
  const key = keyOf(sessionId);
  const waiting = pending.get(key);
  if (!waiting) return;
  clearTimeout(waiting.timer);
  pending.delete(key);
  await saveComposerDraft(key, waiting.text).catch(() => {
    // Storage full or gone: the text is still in the composer; only the copy for later is lost.
  });
}

/** Writes every pending draft now (the page is being hidden or closed). */
export function flushAllComposerDrafts(): void {
  for (const key of [...pending.keys()]) void flushComposerDraft(key === NEW_CHAT ? null : key);
}

/** The message was sent (or queued): the chat's draft is gone. */
export async function clearComposerDraft(sessionId: SessionId | null): Promise<void> {
  const key = keyOf(sessionId);
  const waiting = pending.get(key);
  if (waiting) clearTimeout(waiting.timer);
  pending.delete(key);
  await saveComposerDraft(key, "").catch(() => {});
}
