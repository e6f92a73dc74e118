/**
 * Rows of tables sync copies field by field (blobs): Blob fields become `{ $blob, type }` with the
 * bytes in base64 and come back as Blobs, every other field is copied as is. Generic on purpose, so a
 * table that gains fields (content-addressed attachments) syncs them without changes here.
 */
import type { GenericRow } from "../../core/sync/records";
import { base64ToBytes, bytesToBase64 } from "./base64";

type EncodedBlob = { $blob: string; type: string };

const isEncodedBlob = (v: unknown): v is EncodedBlob =>
  typeof v === "object" && v !== null && typeof (v as EncodedBlob).$blob === "string";

export async function encodeRow(row: object): Promise<GenericRow> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] =
      value instanceof Blob
        ? { $blob: bytesToBase64(new Uint8Array(await value.arrayBuffer())), type: value.type }
        : value;
  }
  return out;
}

export function decodeRow(row: GenericRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = isEncodedBlob(value) ? new Blob([base64ToBytes(value.$blob)], { type: value.type }) : value;
  }
  return out;
}
