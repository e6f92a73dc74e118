/**
 * The blobs table: attachment bytes (images, PDFs), stored once under the SHA-256 of their bytes
 * and referenced by id from blocks (never inline in entry rows). Verbs: store, read (as a Blob for
 * the page, as base64 for a request or an export), and collect the ones nothing references.
 */
import { blobIdOf, blobIdsOfBlocks, blobIdsOfEntry, bytesToBase64 } from "../core/attachments/blob-id";
import type { ExportedBlob } from "../core/export/grove-json";
import type { Entry } from "../core/session/entries";
import { type BlobId, firstEntryIdAt } from "../core/session/ids";
import type { BlobRow } from "./rows";
import { type GroveDb, getDb } from "./schema";

/**
 * A blob younger than this is never collected: a file being attached right now may not be in its
 * composer draft yet (the caller also passes this tab's composers as `keep`), and an import writing
 * right now must not lose it. Composer drafts' attachments count as references (db/composer-drafts.ts).
 */
export const BLOB_GC_GRACE_MS = 60 * 60 * 1000;
/** How long before it is written an entry's id may have been made (a send's id is made at Enter). */
const BLOB_GC_WRITE_MARGIN_MS = 60_000;

/**
 * Stores `bytes` (once: the id is their hash, so the same file again rewrites the same row) and
 * returns the id. Storing again refreshes `createdAt`, so a file re-attached is young again for the
 * collector.
 */
export async function storeBlob(bytes: Uint8Array, mimeType: string, now: number = Date.now()): Promise<BlobId> {
  const id = await blobIdOf(bytes);
  const row: BlobRow = {
    id,
    data: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }),
    mimeType,
    size: bytes.length,
    createdAt: now,
  };
  await getDb().blobs.put(row);
  return id;
}

/** The stored bytes of `id` as a Blob (for thumbnails and downloads), or undefined. */
export async function getBlob(id: BlobId): Promise<Blob | undefined> {
  return (await getDb().blobs.get(id))?.data;
}

/** Base64 data of each of `ids` that is stored (missing ones are left out). */
export async function readBlobsBase64(ids: Iterable<BlobId>): Promise<Map<BlobId, string>> {
  const unique = [...new Set(ids)];
  const rows = unique.length > 0 ? await getDb().blobs.bulkGet(unique) : [];
  const out = new Map<BlobId, string>();
  // Reading a Blob's bytes is not a Dexie call: done after the read, outside any transaction.
  for (const row of rows) if (row) out.set(row.id, bytesToBase64(new Uint8Array(await row.data.arrayBuffer())));
  return out;
}

/** The blob ids `entries` reference (images and PDFs), each once. */
function referencedBlobIds(entries: Iterable<Entry>): Set<BlobId> {
  const out = new Set<BlobId>();
  for (const e of entries) for (const id of blobIdsOfEntry(e)) out.add(id);
  return out;
}

/** The blob ids the composer drafts' attachments reference: live, like an entry's. */
async function draftBlobIds(db: GroveDb): Promise<Set<BlobId>> {
  const out = new Set<BlobId>();
  await db.composerAttachments.each((row) => {
    for (const id of blobIdsOfBlocks([row.block])) out.add(id);
  });
  return out;
}

/** The stored blobs `entries` reference, for an export (base64, lossless). */
export async function exportedBlobsOf(entries: readonly Entry[]): Promise<ExportedBlob[]> {
  const ids = [...referencedBlobIds(entries)];
  if (ids.length === 0) return [];
  const rows = await getDb().blobs.bulkGet(ids);
  const out: ExportedBlob[] = [];
  for (const row of rows) {
    if (row)
      out.push({
        id: row.id,
        mimeType: row.mimeType,
        data: bytesToBase64(new Uint8Array(await row.data.arrayBuffer())),
      });
  }
  return out;
}

/**
 * Deletes the blobs no entry and no composer draft references, except those younger than
 * `BLOB_GC_GRACE_MS`. Returns how many went. The entries are scanned outside any write transaction
 * (a big history must not block appends); the delete then re-reads each candidate and spares one
 * stored again meanwhile (its `createdAt` is fresh: it was just attached or imported) or put in a
 * composer draft meanwhile (the drafts, a few rows, are read again inside the delete's transaction)
 * or referenced by an entry made since the scan began (read again there too, by id range).
 */
export async function collectUnreferencedBlobs(
  now: number = Date.now(),
  /** Blobs referenced outside the entries (this tab's composers): never collected. */
  keep: ReadonlySet<BlobId> = new Set(),
): Promise<number> {
  const db = getDb();
  // Entries made from here on (less a margin: an entry's id is made a moment before it is written)
  // are read again inside the delete: a send of a draft's attachment clears the draft first and
  // writes its entry after, so during the scan the blob may be in neither.
  const madeSince = firstEntryIdAt(Date.now() - BLOB_GC_WRITE_MARGIN_MS);
  const isOld = (row: BlobRow) => now - row.createdAt >= BLOB_GC_GRACE_MS && !keep.has(row.id);
  const old = (await db.blobs.toArray()).filter(isOld).map((row) => row.id);
  if (old.length === 0) return 0;
  const referenced = new Set<BlobId>();
  await db.entries.each((e) => {
    for (const id of referencedBlobIds([e])) referenced.add(id);
  });
  const candidates = old.filter((id) => !referenced.has(id));
  if (candidates.length === 0) return 0;
  return db.transaction("rw", db.blobs, db.composerAttachments, db.entries, async () => {
    const inDrafts = await draftBlobIds(db);
    const recent = referencedBlobIds(await db.entries.where(":id").aboveOrEqual(madeSince).toArray());
    const rows = await db.blobs.bulkGet(candidates.filter((id) => !inDrafts.has(id) && !recent.has(id)));
    const gone = rows.filter((row): row is BlobRow => row !== undefined && isOld(row)).map((row) => row.id);
    await db.blobs.bulkDelete(gone);
    return gone.length;
  });
}
