/**
 * Composer drafts: what the user typed into a chat's composer and the files attached there, not
 * sent yet, one row per chat, so they stay with their chat (never follow the user into another one)
 * and survive a reload. state/ writes the text debounced (never per keystroke) and the attachments
 * when they change; the text and the attachments are written separately, each keeping the other.
 * A row with neither is deleted. Attachment bytes live in the blobs table (db/blobs.ts); the row
 * keeps only the blocks that reference them, and the blob collector counts those as live.
 */
import type { AttachmentBlock } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import type { ComposerDraftRow } from "./rows";
import { getDb } from "./schema";

/** The chat's unsent text, or "" when there is none. */
export async function getComposerDraft(sessionId: SessionId): Promise<string> {
  return (await getDb().composerDrafts.get(sessionId))?.text ?? "";
}

/** The files attached in the chat's composer and not sent, oldest first ([] when none). */
export async function getComposerDraftAttachments(sessionId: SessionId): Promise<AttachmentBlock[]> {
  return (await getDb().composerDrafts.get(sessionId))?.attachments ?? [];
}

/** Stores the chat's unsent text (replacing the previous one); "" (or only whitespace) removes it. */
export async function saveComposerDraft(sessionId: SessionId, text: string, now: number = Date.now()): Promise<void> {
  await updateDraft(sessionId, now, (row) => ({ ...row, text: text.trim() === "" ? "" : text }));
}

/**
 * Stores the files attached in the chat's composer (replacing the previous list); [] removes them
 * (a chip removed, the message sent). Their bytes must already be in the blobs table.
 */
export async function saveComposerDraftAttachments(
  sessionId: SessionId,
  attachments: readonly AttachmentBlock[],
  now: number = Date.now(),
): Promise<void> {
  await updateDraft(sessionId, now, (row) => ({ ...row, attachments: [...attachments] }));
}

/** Read, change and write (or delete, when nothing is left) the chat's row in one transaction. */
async function updateDraft(
  sessionId: SessionId,
  now: number,
  change: (row: ComposerDraftRow) => ComposerDraftRow,
): Promise<void> {
  const table = getDb().composerDrafts;
  await getDb().transaction("rw", table, async () => {
    const before = (await table.get(sessionId)) ?? { sessionId, text: "", updatedAt: now };
    const { attachments, ...row } = change(before);
    if (row.text === "" && !attachments?.length) await table.delete(sessionId);
    else await table.put({ ...row, ...(attachments?.length ? { attachments } : {}), updatedAt: now });
  });
}
