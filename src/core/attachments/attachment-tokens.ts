/**
 * What an image or a PDF costs in the context, estimated before anything is sent (the composer's
 * chips, the context meter, the compaction engine). Text files are counted as their fenced text by
 * the text counter, like any message.
 *
 * Images: Anthropic's published rule, tokens ≈ width × height / 750, after the image is scaled to fit
 * `IMAGE_MAX_EDGE_PX` on its long edge (Claude scales larger images down, so no image costs more
 * than about 1,600 tokens there). OpenAI bills tiles (85 + 170 per 512 px tile at high detail), which
 * lands in the same range for common sizes; one estimate for both keeps the meter simple.
 * PDFs: `PDF_PAGE_TOKENS` per page (Claude sends each page as text plus an image of the page:
 * 1,500–3,000 tokens a page by Anthropic's guidance). Pure: no I/O.
 */
import type { Block, DocumentBlock, ImageBlock } from "../session/entries";

/** Claude scales an image down until its long edge is at most this many pixels. */
const IMAGE_MAX_EDGE_PX = 1568;
/** Anthropic: tokens ≈ pixels / 750. */
const IMAGE_PIXELS_PER_TOKEN = 750;
/** An image whose size is unknown (a block written before sizes were stored) is assumed to cost this. */
export const UNKNOWN_IMAGE_TOKENS = 1_600;
/** Tokens per PDF page (text plus the page image), the middle of Anthropic's 1,500–3,000 range. */
export const PDF_PAGE_TOKENS = 2_000;
/** A PDF whose pages could not be counted is assumed to have one page per this many bytes. */
const PDF_BYTES_PER_PAGE_GUESS = 100_000;

export function imageTokens(block: Pick<ImageBlock, "width" | "height">): number {
  const { width, height } = block;
  if (!width || !height || width <= 0 || height <= 0) return UNKNOWN_IMAGE_TOKENS;
  const scale = Math.min(1, IMAGE_MAX_EDGE_PX / Math.max(width, height));
  return Math.max(1, Math.ceil((width * scale * (height * scale)) / IMAGE_PIXELS_PER_TOKEN));
}

/** The page count used for estimates: the counted one, else a guess from the size. */
export function pdfPages(block: Pick<DocumentBlock, "pages" | "size">): number {
  return block.pages && block.pages > 0 ? block.pages : Math.max(1, Math.ceil(block.size / PDF_BYTES_PER_PAGE_GUESS));
}

export function documentTokens(block: Pick<DocumentBlock, "pages" | "size">): number {
  return pdfPages(block) * PDF_PAGE_TOKENS;
}

/** Tokens a block costs beyond its text: an image's or a PDF's estimate, 0 for every other block. */
export function attachmentTokens(block: Block): number {
  if (block.type === "image") return imageTokens(block);
  if (block.type === "document") return documentTokens(block);
  return 0;
}
