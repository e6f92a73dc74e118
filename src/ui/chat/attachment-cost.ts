/**
 * What one attachment costs in the context, as the composer's chip shows it: an image's or a PDF's
 * estimate (core/attachments/attachment-tokens.ts), a text file's fenced text by the text estimate.
 * A text file's cost and size scan its whole text (a pasted log: 1 MB), so each block's are worked
 * out once and kept (blocks are never changed in place): the tray renders on every keystroke.
 */
import { textFileText } from "../../core/attachments/attachment-text";
import { attachmentTokens } from "../../core/attachments/attachment-tokens";
import type { AttachmentBlock, TextFileBlock } from "../../core/session/entries";
import { estimateTokens } from "../../core/tokens/estimate";
import { utf8Length } from "../../core/utf8-length";

const textCosts = new WeakMap<TextFileBlock, number>();
const textSizes = new WeakMap<TextFileBlock, number>();

export function attachmentCost(block: AttachmentBlock): number {
  if (block.type !== "text_file") return attachmentTokens(block);
  let cost = textCosts.get(block);
  if (cost === undefined) {
    cost = estimateTokens(textFileText(block));
    textCosts.set(block, cost);
  }
  return cost;
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

/** Bytes: a text file's in UTF-8. */
export function attachmentSize(block: AttachmentBlock): number | undefined {
  if (block.type !== "text_file") return block.size;
  let size = textSizes.get(block);
  if (size === undefined) {
    size = utf8Length(block.text);
    textSizes.set(block, size);
  }
  return size;
}
