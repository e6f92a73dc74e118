/**
 * Writing bytes to the blobs table under their content address: the id is the SHA-256 of the
 * bytes (64 lowercase hex digits), so the same image imported twice, in any chat, is stored once.
 * (The attachments work stores its blobs the same way; the two are meant to be one function.)
 */
import type { BlobId } from "../../core/session/ids";
import { getDb } from "../schema";

export async function putBlob(bytes: Uint8Array, mimeType: string, now: number = Date.now()): Promise<BlobId> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  const id = hex as BlobId;
  const db = getDb();
  // Content-addressed: a row already there holds these very bytes.
  if ((await db.blobs.get(id)) === undefined) {
    await db.blobs.put({
      id,
      data: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }),
      mimeType,
      size: bytes.length,
      createdAt: now,
    });
  }
  return id;
}
