/**
 * Images of a pi export: the blobs its entries refer to, read back as base64 for the pure pi
 * exporter (`ExportedSession.images`). The import side is import-blobs.ts.
 */
import { bytesToBase64 } from "../../core/attachments/blob-id";
import type { ExportedSession } from "../../core/export/grove-json";
import type { BlobId } from "../../core/session/ids";
import { getDb } from "../schema";

/** The session with the bytes of the images its entries refer to, for the pi export. */
export async function withImageData(s: ExportedSession): Promise<ExportedSession> {
  const wanted = new Set<BlobId>();
  for (const e of s.entries) {
    if (e.type !== "message" && e.type !== "context_note") continue;
    for (const b of e.content) if (b.type === "image") wanted.add(b.blobId);
  }
  if (wanted.size === 0) return s;
  const rows = await getDb().blobs.bulkGet([...wanted]);
  const images = new Map<BlobId, { data: string; mimeType: string }>();
  for (const row of rows) {
    if (!row) continue;
    images.set(row.id, { data: bytesToBase64(new Uint8Array(await row.data.arrayBuffer())), mimeType: row.mimeType });
  }
  return { ...s, images };
}
