/**
 * What one attachment costs in the context, as the composer's chip shows it: an image's or a PDF's
 * estimate (core/attachments/attachment-tokens.ts), a text file's fenced text by the text estimate.
 */
import { textFileText } from "../../core/attachments/attachment-text";
import { attachmentTokens } from "../../core/attachments/attachment-tokens";
import type { AttachmentBlock } from "../../core/session/entries";
import { estimateTokens } from "../../core/tokens/estimate";

export function attachmentCost(block: AttachmentBlock): number {
  return block.type === "text_file" ? estimateTokens(textFileText(block)) : attachmentTokens(block);
}

/** "PNG", "PDF", "CSV"…: the file's kind in a word. */
export function attachmentKind(block: AttachmentBlock): string {
  if (block.type === "document") return "PDF";
  if (block.type === "image") return (block.mimeType.split("/")[1] ?? "image").toUpperCase().replace("JPEG", "JPG");
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(block.name)?.[1];
  return ext ? ext.toUpperCase() : "Text";
}

export function attachmentName(block: AttachmentBlock): string {
  return block.name ?? "image";
}

export function attachmentSize(block: AttachmentBlock): number | undefined {
  return block.type === "text_file" ? new TextEncoder().encode(block.text).length : block.size;
}
