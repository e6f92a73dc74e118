/**
 * Composer drafts: what the user typed into a chat's composer and the files attached there, not
 * sent yet, one row per chat, so they stay with their chat (never follow the user into another one)
 * and survive a reload. state/ writes the text debounced (never per keystroke) and the attachments
 * when they change; the text and the attachments are written separately, each keeping the other.
 * A draft with neither is deleted.
 *
 * Each attached file is a row of its own (composerAttachments), written once when it is attached and
 * deleted when it goes; the draft row lists their ids. So a save of the text writes only the small
 * draft row, never a pasted 1 MB file again (issue 24 item 10). Image and PDF bytes live in the
 * blobs table (db/blobs.ts); their rows keep only the blocks that reference them, and the blob
 * collector counts those as live.
 */
import type { AttachmentBlock } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import type { ComposerAttachmentRow, ComposerDraftRow } from "./rows";
import { type GroveDb, getDb } from "./schema";

/** The chat's unsent text, or "" when there is none. */
export async function getComposerDraft(sessionId: SessionId): Promise<string> {
  return (await getDb().composerDrafts.get(sessionId))?.text ?? "";
}

/** The files attached in the chat's composer and not sent, oldest first ([] when none). */
export async function getComposerDraftAttachments(sessionId: SessionId): Promise<AttachmentBlock[]> {
  const db = getDb();
  return db.transaction("r", db.composerDrafts, db.composerAttachments, async () => {
    const ids = (await db.composerDrafts.get(sessionId))?.attachmentIds ?? [];
    const rows = await db.composerAttachments.bulkGet(ids);
    return rows.flatMap((row) => (row ? [row.block] : []));
  });
}

/** Stores the chat's unsent text (replacing the previous one); "" (or only whitespace) removes it. */
export async function saveComposerDraft(sessionId: SessionId, text: string, now: number = Date.now()): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.composerDrafts, async () => {
    const before = await db.composerDrafts.get(sessionId);
    await putDraft(db, { ...(before ?? { sessionId }), text: text.trim() === "" ? "" : text, updatedAt: now });
  });
}

/**
 * Stores the files attached in the chat's composer (replacing the previous list); [] removes them
 * (a chip removed, the message sent). A file already stored (the same block) is kept as it is, only
 * files new to the list are written, and files gone from it are deleted. Image and PDF bytes must
 * already be in the blobs table.
 */
export async function saveComposerDraftAttachments(
  sessionId: SessionId,
  attachments: readonly AttachmentBlock[],
  now: number = Date.now(),
): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.composerDrafts, db.composerAttachments, async () => {
    const before = await db.composerDrafts.get(sessionId);
    const stored = await db.composerAttachments.bulkGet(before?.attachmentIds ?? []);
    const unused = stored.filter((row): row is ComposerAttachmentRow => row !== undefined);
    const added: ComposerAttachmentRow[] = [];
    const ids = attachments.map((block) => {
      const same = unused.findIndex((row) => sameBlock(row.block, block));
      if (same >= 0) return unused.splice(same, 1)[0]!.id;
      const row = { id: crypto.randomUUID(), sessionId, block };
      added.push(row);
      return row.id;
    });
    await db.composerAttachments.bulkDelete(unused.map((row) => row.id));
    await db.composerAttachments.bulkAdd(added);
    await putDraft(db, { text: "", ...before, sessionId, attachmentIds: ids, updatedAt: now });
  });
}

/** The chat's draft files, for deleting the chat (inside the caller's transaction). */
export async function deleteComposerDraftOf(db: GroveDb, sessionId: SessionId): Promise<void> {
  await db.composerDrafts.delete(sessionId);
  await db.composerAttachments.where("sessionId").equals(sessionId).delete();
}

/** Writes the row, or deletes it when it holds neither text nor files. */
async function putDraft(db: GroveDb, row: ComposerDraftRow): Promise<void> {
  const { attachmentIds, ...rest } = row;
  if (row.text === "" && !attachmentIds?.length) await db.composerDrafts.delete(row.sessionId);
  else await db.composerDrafts.put({ ...rest, ...(attachmentIds?.length ? { attachmentIds } : {}) });
}

/** Whether two blocks are the same attachment: flat objects, every field equal (a text file's whole text). */
function sameBlock(a: AttachmentBlock, b: AttachmentBlock): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof AttachmentBlock)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
