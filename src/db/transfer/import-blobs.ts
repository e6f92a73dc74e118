/**
 * The attachment bytes an import brings, made into blob rows before anything is written, so the
 * import job writes them with the sessions in its one transaction:
 * - the images and PDFs of a ChatGPT export .zip, stored under the SHA-256 of their bytes (the
 *   content address every attachment has, db/blobs.ts) and handed to the parser by file id;
 * - the base64 images a format carries inline (pi sessions, Open WebUI's `data:` URLs), which the
 *   parser gave temporary ids: their blocks are pointed at the content address.
 * Only what an imported entry refers to is kept.
 */
import { base64ToBytes, blobIdOf, blobIdsOfEntry } from "../../core/attachments/blob-id";
import { sniffMimeType } from "../../core/attachments/sniff";
import type { ChatGptAsset } from "../../core/export/chatgpt-content";
import type { ExportedSession } from "../../core/export/grove-json";
import type { Block, Entry } from "../../core/session/entries";
import type { BlobId } from "../../core/session/ids";
import type { BlobRow } from "../rows";
import { inflateZipFiles, type ZipAssetFile } from "./read-zip";

function row(id: BlobId, bytes: Uint8Array, mimeType: string, now: number): BlobRow {
  return {
    id,
    data: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }),
    mimeType,
    size: bytes.length,
    createdAt: now,
  };
}

/** The zip's images and PDFs by ChatGPT file id, and their rows. Other files (audio, text) are left out. */
export async function zipAssetBlobs(
  zip: Uint8Array,
  files: readonly ZipAssetFile[],
  rows: Map<BlobId, BlobRow>,
  now: number = Date.now(),
): Promise<Map<string, ChatGptAsset>> {
  const assets = new Map<string, ChatGptAsset>();
  await inflateZipFiles(zip, files, async (file, data) => {
    const mimeType = sniffMimeType(data);
    if (!mimeType || assets.has(file.id)) return;
    const blobId = await blobIdOf(data);
    if (!rows.has(blobId)) rows.set(blobId, row(blobId, data, mimeType, now));
    assets.set(file.id, { blobId, mimeType, size: data.length, ...(file.name ? { name: file.name } : {}) });
  });
  return assets;
}

/**
 * Sessions carrying base64 images (`images`, by temporary id): each image becomes a row under
 * its content address and its blocks point there. A bad base64 string is left out (its block
 * then has no bytes, and the chat says so).
 */
export async function inlineImageBlobs(
  sessions: readonly ExportedSession[],
  rows: Map<BlobId, BlobRow>,
  now: number = Date.now(),
): Promise<ExportedSession[]> {
  const out: ExportedSession[] = [];
  for (const s of sessions) {
    if (!s.images || s.images.size === 0) {
      out.push(s);
      continue;
    }
    const ids = new Map<BlobId, BlobId>();
    for (const [temp, image] of s.images) {
      let bytes: Uint8Array;
      try {
        bytes = base64ToBytes(image.data);
      } catch {
        continue;
      }
      // Typed by its bytes, never by the type the file claims (issue 24.1).
      const mimeType = sniffMimeType(bytes);
      if (!mimeType?.startsWith("image/")) continue;
      const id = await blobIdOf(bytes);
      ids.set(temp, id);
      if (!rows.has(id)) rows.set(id, row(id, bytes, mimeType, now));
    }
    const { images: _images, ...rest } = s;
    out.push({ ...rest, entries: s.entries.map((e) => rekeyEntry(e, ids)) });
  }
  return out;
}

/**
 * Sessions carrying attachment bytes under the ids a Grove JSON file claims (`blobs`): each file is
 * stored under the hash of its bytes and the type its bytes show, and its blocks point there. The
 * claimed id and type are ignored: an import reusing the id of a file already here with other bytes
 * once replaced it (issue 24.2), and HTML claimed as PNG ran at Grove's origin (24.1). A file whose
 * bytes are not an image or a PDF is left out (its block then has no bytes, and the chat says so),
 * unless only a code execution's record of produced files names it (a CSV, a text file): that file is
 * kept as `application/octet-stream`, which is only ever offered as a download, never rendered.
 */
export async function embeddedBlobs(
  sessions: readonly ExportedSession[],
  rows: Map<BlobId, BlobRow>,
  now: number = Date.now(),
): Promise<ExportedSession[]> {
  const out: ExportedSession[] = [];
  for (const s of sessions) {
    if (!s.blobs || s.blobs.length === 0) {
      out.push(s);
      continue;
    }
    const ids = new Map<BlobId, BlobId>();
    const types = new Map<BlobId, string>();
    const producedOnly = producedOnlyIds(s.entries);
    for (const b of s.blobs) {
      let bytes: Uint8Array;
      try {
        bytes = base64ToBytes(b.data);
      } catch {
        continue;
      }
      const id = await blobIdOf(bytes);
      // A produced file is named by its content address: bytes that do not hash to it are not it.
      const mimeType = sniffMimeType(bytes) ?? (producedOnly.has(b.id) && id === b.id ? DOWNLOAD_ONLY : undefined);
      if (!mimeType) continue;
      ids.set(b.id, id);
      types.set(id, mimeType);
      if (!rows.has(id)) rows.set(id, row(id, bytes, mimeType, now));
    }
    const { blobs: _blobs, ...rest } = s;
    out.push({ ...rest, entries: s.entries.map((e) => rekeyEntry(e, ids, types)) });
  }
  return out;
}

const DOWNLOAD_ONLY = "application/octet-stream";

/** Blob ids that only code execution's produced-files records name (no attachment block does). */
function producedOnlyIds(entries: readonly Entry[]): Set<BlobId> {
  const produced = new Set<BlobId>();
  const attached = new Set<BlobId>();
  for (const e of entries) {
    const into = e.type === "message" || e.type === "context_note" ? attached : produced;
    for (const id of blobIdsOfEntry(e)) into.add(id);
  }
  for (const id of attached) produced.delete(id);
  return produced;
}

function rekey(
  content: readonly Block[],
  ids: ReadonlyMap<BlobId, BlobId>,
  types: ReadonlyMap<BlobId, string>,
): Block[] {
  return content.map((b) => {
    if (b.type !== "image" && b.type !== "document") return b;
    const blobId = ids.get(b.blobId) ?? b.blobId;
    const mimeType = types.get(blobId);
    return b.type === "image" && mimeType?.startsWith("image/") ? { ...b, blobId, mimeType } : { ...b, blobId };
  });
}

function rekeyEntry(e: Entry, ids: ReadonlyMap<BlobId, BlobId>, types: ReadonlyMap<BlobId, string> = new Map()): Entry {
  if (e.type === "message" || e.type === "context_note") {
    return e.content.some((b) => b.type === "image" || b.type === "document")
      ? { ...e, content: rekey(e.content, ids, types) }
      : e;
  }
  return e;
}

/** The rows an entry of `sessions` refers to: an import keeps no file nothing shows. */
export function referencedRows(rows: ReadonlyMap<BlobId, BlobRow>, sessions: readonly ExportedSession[]): BlobRow[] {
  if (rows.size === 0) return [];
  const wanted = new Set<BlobId>();
  for (const s of sessions) {
    for (const e of s.entries) for (const id of blobIdsOfEntry(e)) wanted.add(id);
  }
  const out: BlobRow[] = [];
  for (const [id, r] of rows) if (wanted.has(id)) out.push(r);
  return out;
}
