import { describe, expect, it } from "vitest";
import type { AttachmentBlock, DocumentBlock, ImageBlock } from "../session/entries";
import type { BlobId } from "../session/ids";
import type { ModelInput } from "../tokens/models";
import { findModel, modelInput } from "../tokens/models";
import { attachmentLabel, textFileText } from "./attachment-text";
import { documentTokens, imageTokens, PDF_PAGE_TOKENS, UNKNOWN_IMAGE_TOKENS } from "./attachment-tokens";
import { base64ToBytes, blobIdOf, bytesToBase64 } from "./blob-id";
import { classifyFile, countPdfPages } from "./kinds";
import { type AttachmentTarget, attachmentProblem } from "./limits";

const MB = 1024 * 1024;
const id = "b" as BlobId;
const image = (over: Partial<ImageBlock> = {}): ImageBlock => ({
  type: "image",
  blobId: id,
  mimeType: "image/png",
  name: "a.png",
  size: 1000,
  ...over,
});
const pdf = (over: Partial<DocumentBlock> = {}): DocumentBlock => ({
  type: "document",
  blobId: id,
  mimeType: "application/pdf",
  name: "t.pdf",
  size: 1000,
  pages: 2,
  ...over,
});
const both: ModelInput = { images: true, pdfs: true };
const claude: AttachmentTarget = { api: "anthropic-messages", modelLabel: "Claude Sonnet 4.5", input: both };

describe("blob ids", () => {
  it("are the SHA-256 of the bytes, in hex", async () => {
    expect(await blobIdOf(new TextEncoder().encode("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("base64 round-trips every byte value, also past the slice size", () => {
    const bytes = Uint8Array.from({ length: 40_000 }, (_, i) => i % 256);
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString("base64"));
    expect(base64ToBytes(text)).toEqual(bytes);
  });
});

describe("token estimates", () => {
  it("images: width × height / 750 after scaling to 1568 px on the long edge", () => {
    expect(imageTokens({ width: 96, height: 64 })).toBe(9);
    expect(imageTokens({ width: 1000, height: 1000 })).toBe(1334);
    // 4000×3000 scales to 1568×1176: 2,458 tokens would be 16,000 unscaled.
    expect(imageTokens({ width: 4000, height: 3000 })).toBe(Math.ceil((1568 * 1176) / 750));
    expect(imageTokens({})).toBe(UNKNOWN_IMAGE_TOKENS);
  });

  it("PDFs: a fixed cost per page, pages guessed from the size when not counted", () => {
    expect(documentTokens({ pages: 3, size: 10 })).toBe(3 * PDF_PAGE_TOKENS);
    expect(documentTokens({ size: 250_000 })).toBe(3 * PDF_PAGE_TOKENS);
  });
});

describe("file kinds", () => {
  it("by MIME type, else by extension", () => {
    expect(classifyFile("x.png", "image/png")).toEqual({ kind: "image", mimeType: "image/png" });
    expect(classifyFile("photo.JPG", "")).toEqual({ kind: "image", mimeType: "image/jpeg" });
    expect(classifyFile("a.pdf", "application/octet-stream")).toEqual({ kind: "pdf", mimeType: "application/pdf" });
    expect(classifyFile("data.csv", "text/csv")?.kind).toBe("text");
    expect(classifyFile("main.rs", "")?.kind).toBe("text");
    expect(classifyFile("x.json", "application/json")?.kind).toBe("text");
    expect(classifyFile("movie.mp4", "video/mp4")).toBeNull();
    expect(classifyFile("icon.svg", "image/svg+xml")).toBeNull();
  });

  it("counts PDF pages from page objects, not the page tree", () => {
    const pdfText = "%PDF-1.4\n<< /Type /Pages /Count 2 >>\n<< /Type /Page >>\n<</Type/Page/Parent 2 0 R>>";
    expect(countPdfPages(new TextEncoder().encode(pdfText))).toBe(2);
    expect(countPdfPages(new TextEncoder().encode("%PDF-1.7 compressed"))).toBeNull();
  });
});

describe("attachment text", () => {
  it("names images and PDFs", () => {
    expect(attachmentLabel(image())).toBe("[image: a.png]");
    expect(attachmentLabel(image({ name: undefined }))).toBe("[image]");
    expect(attachmentLabel(pdf())).toBe("[PDF: t.pdf]");
  });

  it("fences a text file longer than any backtick run inside it", () => {
    expect(textFileText({ name: "r.md", text: "a ```` b" })).toBe("r.md:\n`````md\na ```` b\n`````");
    expect(textFileText({ name: "x.csv", text: "a,b" })).toBe("x.csv:\n```csv\na,b\n```");
  });
});

describe("attachmentProblem", () => {
  const fresh = (...blocks: AttachmentBlock[]) => blocks;

  it("accepts what the provider takes", () => {
    expect(attachmentProblem(fresh(image(), pdf()), [], claude)).toBeNull();
  });

  it("says so when the model reads no images or no PDFs", () => {
    const o3mini = findModel("o3-mini");
    expect(o3mini).toBeDefined();
    const target: AttachmentTarget = {
      api: "openai-responses",
      modelLabel: "o3-mini",
      input: modelInput(o3mini as NonNullable<typeof o3mini>),
    };
    expect(attachmentProblem(fresh(image()), [], target)).toBe(
      "o3-mini cannot read images. Remove the image or choose a model that reads images.",
    );
    expect(attachmentProblem(fresh(pdf()), [], target)).toMatch(/^o3-mini cannot read PDFs/);
    expect(modelInput(findModel("gpt-4o") as NonNullable<ReturnType<typeof findModel>>)).toEqual(both);
  });

  it("checks size per provider (base64 on the wire)", () => {
    expect(attachmentProblem(fresh(image({ size: 4 * MB })), [], claude)).toMatch(/a\.png is too large \(4 MB\)/);
    const openai: AttachmentTarget = { api: "openai-chat", modelLabel: "GPT-4o", input: both };
    expect(attachmentProblem(fresh(image({ size: 4 * MB })), [], openai)).toBeNull();
    expect(attachmentProblem(fresh(pdf({ size: 30 * MB })), [], claude)).toMatch(/t\.pdf is too large/);
  });

  it("checks types, pages and text length", () => {
    expect(attachmentProblem(fresh(image({ mimeType: "image/bmp" })), [], claude)).toMatch(
      /not a PNG, JPEG, GIF or WebP/,
    );
    expect(attachmentProblem(fresh(pdf({ pages: 101 })), [], claude)).toMatch(/101 pages/);
    const long = { type: "text_file", name: "big.log", mimeType: "text/plain", text: "x".repeat(1_000_001) } as const;
    expect(attachmentProblem(fresh(long), [], claude)).toMatch(/big\.log is too long/);
  });

  it("counts the images already in the context toward the per-request limits", () => {
    const earlier = Array.from({ length: 100 }, () => image());
    expect(attachmentProblem(fresh(image()), earlier, claude)).toMatch(/101 images in one request/);
    const big = Array.from({ length: 6 }, () => pdf({ size: 5 * MB }));
    expect(attachmentProblem(fresh(pdf({ size: 1 * MB })), big, claude)).toMatch(/add up to/);
  });
});
