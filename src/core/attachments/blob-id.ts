/**
 * Content addressing for the blobs table: a blob's id is the SHA-256 of its bytes (lowercase hex),
 * so the same file attached twice, in any chat, is stored once. Also the base64 form attachments
 * travel in (requests, Grove JSON). Pure (Web Crypto's digest is a computation, not I/O).
 */
import { codeFilesBlobIds } from "../session/code-files-record";
import type { Block, Entry } from "../session/entries";
import type { BlobId } from "../session/ids";

/** The blob id of `bytes`: their SHA-256, as 64 lowercase hex digits. */
export async function blobIdOf(bytes: Uint8Array): Promise<BlobId> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex as BlobId;
}

/** The blobs `blocks` reference (images and PDFs; a text file carries its text), in order, repeats kept. */
export function blobIdsOfBlocks(blocks: Iterable<Block>): BlobId[] {
  const out: BlobId[] = [];
  for (const b of blocks) if (b.type === "image" || b.type === "document") out.push(b.blobId);
  return out;
}

/**
 * The blobs an entry references: a message's blocks, and a context note's (a pi `custom_message`
 * or a Grove JSON import may carry images there), and a record of code execution's files
 * (core/session/code-files.ts). The one rule for "what keeps a blob alive".
 */
export function blobIdsOfEntry(e: Entry): BlobId[] {
  return e.type === "message" || e.type === "context_note" ? blobIdsOfBlocks(e.content) : codeFilesBlobIds(e);
}

// btoa/atob take "binary strings"; built in slices, since one String.fromCharCode(...bytes) call
// overflows the argument limit on a multi-megabyte file.
const SLICE = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  }
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
