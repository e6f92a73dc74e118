/**
 * Images and attachments, referenced by id from blocks (`ImageBlock.blobId`), never inline in
 * entry rows (a big payload in a hot row slows every read of the session, and blows the quota).
 * Blobs are immutable like entries; nothing deletes them yet (see db/README.md).
 */
import type { BlobId } from "../core/session/ids";
import type { BlobRow } from "./rows";
import { getDb } from "./schema";

export type { BlobRow } from "./rows";

/** Stores a blob under `id`. Callers should check `isQuotaError` on failure (storage.ts). */
export async function putBlob(id: BlobId, data: Blob, now: number = Date.now()): Promise<void> {
  await getDb().blobs.put({ id, data, mimeType: data.type, size: data.size, createdAt: now });
}

export async function getBlob(id: BlobId): Promise<BlobRow | undefined> {
  return getDb().blobs.get(id);
}
