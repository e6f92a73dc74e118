/**
 * The bytes of the images and PDFs a request carries, read from the blobs table at the edge (state/)
 * and handed to the adapters with the request: core/ only ever holds references (`blobId`). An
 * attachment whose data is not in the map (a summarizer call, a model that reads no images, a blob
 * that is gone) is sent as its name, never failing the request. No I/O here.
 */
import { attachmentLabel } from "../core/attachments/attachment-text";
import type { ContextAttachment } from "../core/session/context";
import type { BlobId } from "../core/session/ids";

/** Base64 data (no `data:` prefix) by blob id. */
export type AttachmentData = ReadonlyMap<BlobId, string>;

/** What an adapter sends for one attachment: its data, or the label that names it. */
export type ResolvedAttachment =
  | { kind: "data"; block: ContextAttachment; base64: string }
  | { kind: "label"; text: string };

export function resolveAttachment(block: ContextAttachment, data: AttachmentData | undefined): ResolvedAttachment {
  const base64 = data?.get(block.blobId);
  return base64 === undefined ? { kind: "label", text: attachmentLabel(block) } : { kind: "data", block, base64 };
}

export const dataUrl = (mimeType: string, base64: string): string => `data:${mimeType};base64,${base64}`;
