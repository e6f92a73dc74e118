/**
 * What each provider accepts as attachments, checked before a message is sent so the user reads a
 * plain sentence instead of a provider's 400. Figures are the providers' published limits (checked
 * 2026-11): Anthropic — images at most 5 MB each and 100 per request, PDFs up to 100 pages, 32 MB per
 * request; OpenAI — up to 500 images and 50 MB of inputs per request, files at most 50 MB (Grove keeps
 * PDFs to 32 MB, like Claude). Custom providers get the limits of the api they speak. Sizes are the
 * base64 size on the wire (4/3 of the file). Pure: no I/O.
 */
import type { ApiKind, AttachmentBlock, Block } from "../session/entries";
import type { ModelInput } from "../tokens/models";
import { pdfPages } from "./attachment-tokens";
import { IMAGE_TYPES } from "./kinds";

type AttachmentLimits = {
  readonly maxImageBytes: number;
  readonly maxPdfBytes: number;
  readonly maxPdfPages: number;
  readonly maxImages: number;
  /** All attachment data in one request, base64-encoded. */
  readonly maxRequestBytes: number;
};

const MB = 1024 * 1024;

/** A text file larger than this is refused (its text goes into the message itself). */
const MAX_TEXT_FILE_CHARS = 1_000_000;

function limitsFor(api: ApiKind): AttachmentLimits {
  switch (api) {
    case "anthropic-messages":
      return {
        maxImageBytes: 5 * MB,
        maxPdfBytes: 32 * MB,
        maxPdfPages: 100,
        maxImages: 100,
        maxRequestBytes: 32 * MB,
      };
    case "openai-responses":
    case "openai-chat":
      return {
        maxImageBytes: 20 * MB,
        maxPdfBytes: 32 * MB,
        maxPdfPages: 100,
        maxImages: 500,
        maxRequestBytes: 50 * MB,
      };
    default: {
      const never: never = api;
      throw new Error(`Unknown api: ${String(never)}`);
    }
  }
}

export type AttachmentTarget = { api: ApiKind; modelLabel: string; input: ModelInput };

const base64Bytes = (size: number): number => Math.ceil(size / 3) * 4;
const mb = (bytes: number): string => `${Math.round((bytes / MB) * 10) / 10} MB`;

/**
 * The first problem with sending `fresh` (the new message's attachments) in a context that already
 * holds `earlier` blocks, as a sentence for the user; null when it can be sent.
 * Earlier attachments count toward the per-request limits only when the model reads them (for a model
 * that does not, they are sent as their names, build-context's rule).
 */
export function attachmentProblem(
  fresh: readonly AttachmentBlock[],
  earlier: readonly Block[],
  target: AttachmentTarget,
): string | null {
  const limits = limitsFor(target.api);
  const images = fresh.filter((b) => b.type === "image");
  const pdfs = fresh.filter((b) => b.type === "document");
  if (images.length > 0 && !target.input.images) {
    return `${target.modelLabel} cannot read images. Remove ${images.length === 1 ? "the image" : "the images"} or choose a model that reads images.`;
  }
  if (pdfs.length > 0 && !target.input.pdfs) {
    return `${target.modelLabel} cannot read PDFs. Remove ${pdfs.length === 1 ? "the PDF" : "the PDFs"} or choose a model that reads PDFs.`;
  }
  for (const b of images) {
    if (!IMAGE_TYPES.includes(b.mimeType)) return `${b.name ?? "An image"} is not a PNG, JPEG, GIF or WebP image.`;
    const size = b.size ?? 0;
    if (base64Bytes(size) > limits.maxImageBytes) {
      return `${b.name ?? "An image"} is too large (${mb(size)}): this provider takes images up to ${mb((limits.maxImageBytes * 3) / 4)}.`;
    }
  }
  for (const b of pdfs) {
    if (base64Bytes(b.size) > limits.maxPdfBytes) {
      return `${b.name} is too large (${mb(b.size)}): this provider takes PDFs up to ${mb((limits.maxPdfBytes * 3) / 4)}.`;
    }
    if (b.pages !== undefined && pdfPages(b) > limits.maxPdfPages) {
      return `${b.name} has ${b.pages} pages: this provider takes PDFs of up to ${limits.maxPdfPages} pages.`;
    }
  }
  for (const b of fresh) {
    if (b.type === "text_file" && b.text.length > MAX_TEXT_FILE_CHARS) {
      return `${b.name} is too long to attach (more than ${MAX_TEXT_FILE_CHARS.toLocaleString("en")} characters).`;
    }
  }
  const all = [...earlier, ...fresh].filter(
    (b) => (b.type === "image" && target.input.images) || (b.type === "document" && target.input.pdfs),
  );
  const imageCount = all.filter((b) => b.type === "image").length;
  if (imageCount > limits.maxImages) {
    return `This chat would send ${imageCount} images in one request; this provider takes at most ${limits.maxImages}. Compact the chat or start a new one.`;
  }
  const total = all.reduce(
    (sum, b) => sum + base64Bytes(b.type === "image" ? (b.size ?? 0) : b.type === "document" ? b.size : 0),
    0,
  );
  if (total > limits.maxRequestBytes) {
    return `The attachments in this chat add up to ${mb((total * 3) / 4)}; this provider takes at most ${mb((limits.maxRequestBytes * 3) / 4)} per request. Compact the chat or start a new one.`;
  }
  return null;
}
