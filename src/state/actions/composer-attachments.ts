/**
 * The files attached in each chat's composer and not sent yet, kept per chat in memory (like the
 * text, they stay with their chat when the user opens another one). Not persisted: after a reload
 * they are gone from the composer, while their bytes stay in the blobs table until the collector's
 * grace period ends (db/blobs.ts). `null` is the new chat not created yet.
 */
import type { AttachmentBlock } from "../../core/session/entries";
import type { BlobId, SessionId } from "../../core/session/ids";

const bySession = new Map<SessionId | null, AttachmentBlock[]>();

export function composerAttachments(sessionId: SessionId | null): AttachmentBlock[] {
  return bySession.get(sessionId) ?? [];
}

export function setComposerAttachments(sessionId: SessionId | null, attachments: readonly AttachmentBlock[]): void {
  if (attachments.length === 0) bySession.delete(sessionId);
  else bySession.set(sessionId, [...attachments]);
}

/** The blobs every composer of this tab holds (the collector must spare them). */
export function composerBlobIds(): Set<BlobId> {
  const out = new Set<BlobId>();
  for (const list of bySession.values()) {
    for (const b of list) if (b.type === "image" || b.type === "document") out.add(b.blobId);
  }
  return out;
}
