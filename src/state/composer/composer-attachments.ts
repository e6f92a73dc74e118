/**
 * The files attached in each chat's composer and not sent yet, per chat (like the text, they stay
 * with their chat when the user opens another one, and survive a reload). Held in memory for the
 * composer to read at once, and written to the chat's composer draft (db/composer-drafts.ts) on every
 * change, where the blob collector counts them as references. Their bytes are already in the blobs
 * table (attachFile stored them); the draft keeps only the blocks. `null` is the new chat not
 * created yet.
 */
import { blobIdsOfBlocks } from "../../core/attachments/blob-id";
import type { AttachmentBlock } from "../../core/session/entries";
import type { BlobId, SessionId } from "../../core/session/ids";
import { getComposerDraftAttachments, saveComposerDraftAttachments } from "../../db/composer-drafts";
import { composerDraftKey } from "./composer-drafts";

const bySession = new Map<SessionId | null, AttachmentBlock[]>();
/** Chats whose stored attachments have been read into memory (or whose read is under way). */
const loads = new Map<SessionId | null, Promise<void>>();

export function composerAttachments(sessionId: SessionId | null): AttachmentBlock[] {
  return bySession.get(sessionId) ?? [];
}

function remember(sessionId: SessionId | null, attachments: readonly AttachmentBlock[]): void {
  if (attachments.length === 0) bySession.delete(sessionId);
  else bySession.set(sessionId, [...attachments]);
}

/**
 * Sets the chat's attachments and writes them to its draft. The returned promise settles when the
 * write is done; it never rejects (storage full or gone: the files are still in the composer, only
 * the copy for after a reload is lost).
 */
export function setComposerAttachments(
  sessionId: SessionId | null,
  attachments: readonly AttachmentBlock[],
): Promise<void> {
  remember(sessionId, attachments);
  // Written before the chat's draft was ever read: this list replaces the stored one, so memory is the truth.
  if (!loads.has(sessionId)) loads.set(sessionId, Promise.resolve());
  return saveComposerDraftAttachments(composerDraftKey(sessionId), attachments).catch(() => {});
}

/**
 * The chat's attachments, read from its draft the first time the chat's composer opens in this
 * page (after that, memory is the truth). Files attached while the read ran come after the stored ones.
 */
export async function loadComposerAttachments(sessionId: SessionId | null): Promise<AttachmentBlock[]> {
  let load = loads.get(sessionId);
  if (!load) {
    load = getComposerDraftAttachments(composerDraftKey(sessionId))
      .catch((): AttachmentBlock[] => []) // unreadable: an empty tray, not an error
      .then((stored) => {
        if (stored.length === 0) return;
        // Until this read, memory holds only files attached in this page.
        const added = composerAttachments(sessionId);
        if (added.length > 0) void setComposerAttachments(sessionId, [...stored, ...added]);
        else remember(sessionId, stored);
      });
    loads.set(sessionId, load);
  }
  await load;
  return composerAttachments(sessionId);
}

/** The blobs every composer of this tab holds (the collector must spare them). */
export function composerBlobIds(): Set<BlobId> {
  const out = new Set<BlobId>();
  for (const list of bySession.values()) for (const id of blobIdsOfBlocks(list)) out.add(id);
  return out;
}

/** Forgets what this page holds in memory (tests: a "reload"). */
export function resetComposerAttachments(): void {
  bySession.clear();
  loads.clear();
}
