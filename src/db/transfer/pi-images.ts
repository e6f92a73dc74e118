/**
 * Images of pi sessions, between the pure pi import/export (base64 in `ExportedSession.images`)
 * and the blobs table: stored under their content address when an import is written, read back
 * as base64 for a pi export.
 */
import type { ExportedSession } from "../../core/export/grove-json";
import type { Block, Entry } from "../../core/session/entries";
import type { BlobId } from "../../core/session/ids";
import { storeBlob } from "../blobs";
import { getDb } from "../schema";

function rekey(content: readonly Block[], ids: ReadonlyMap<BlobId, BlobId>): Block[] {
  return content.map((b) => (b.type === "image" ? { ...b, blobId: ids.get(b.blobId) ?? b.blobId } : b));
}

function rekeyEntry(e: Entry, ids: ReadonlyMap<BlobId, BlobId>): Entry {
  if (e.type === "message" || e.type === "context_note") {
    return e.content.some((b) => b.type === "image") ? { ...e, content: rekey(e.content, ids) } : e;
  }
  return e;
}

const SLICE = 0x8000;

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: one String.fromCharCode(...bytes) overflows the argument limit on a large image.
  for (let i = 0; i < bytes.length; i += SLICE) binary += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  return btoa(binary);
}

/**
 * Writes each session's images to the blobs table and points its image blocks at them. Runs
 * before the sessions are written: if that write fails, the blobs stay (content-addressed rows
 * nothing refers to yet, harmless), the sessions do not.
 */
export async function storeImportedImages(sessions: readonly ExportedSession[]): Promise<ExportedSession[]> {
  const out: ExportedSession[] = [];
  for (const s of sessions) {
    if (!s.images || s.images.size === 0) {
      out.push(s);
      continue;
    }
    const ids = new Map<BlobId, BlobId>();
    for (const [temp, image] of s.images) {
      // A bad base64 string is kept out (the block then has no bytes; the chat says so).
      try {
        ids.set(temp, await storeBlob(base64ToBytes(image.data), image.mimeType));
      } catch {}
    }
    const { images: _images, ...rest } = s;
    out.push({ ...rest, entries: s.entries.map((e) => rekeyEntry(e, ids)) });
  }
  return out;
}

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
