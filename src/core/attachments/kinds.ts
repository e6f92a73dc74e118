/**
 * Which files Grove accepts as attachments, and as what: images (PNG, JPEG, GIF, WebP), PDFs, and
 * text files (code, Markdown, CSV, JSON, plain text). Decided by MIME type, else by extension
 * (browsers give many code files no type or `application/octet-stream`). Pure: no I/O.
 */

export type AttachmentKind = "image" | "pdf" | "text";

export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** Extensions read as text (code, markup, data, configuration). */
const TEXT_EXTENSIONS = new Set(
  (
    "txt md markdown csv tsv json jsonl ndjson xml yaml yml toml ini cfg conf log env " +
    "js mjs cjs jsx ts tsx mts cts py rb go rs java kt kts scala c h cc cpp cxx hpp hh cs swift m mm " +
    "php pl pm lua r jl dart ex exs erl hs ml fs clj sql sh bash zsh fish ps1 bat " +
    "html htm css scss sass less vue svelte astro tex rst adoc org diff patch gradle makefile dockerfile"
  ).split(" "),
);

const TEXT_MIME = /^(text\/|application\/(json|ld\+json|xml|x-yaml|yaml|toml|javascript|typescript|x-sh|sql|x-ndjson))/;

const extensionOf = (name: string): string => {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf(".");
  return dot >= 0 ? lower.slice(dot + 1) : lower;
};

/** What a file is as an attachment, with the MIME type to store; null when Grove cannot attach it. */
export function classifyFile(name: string, type: string): { kind: AttachmentKind; mimeType: string } | null {
  const mime = type.toLowerCase().split(";")[0]?.trim() ?? "";
  if (IMAGE_TYPES.includes(mime)) return { kind: "image", mimeType: mime };
  if (mime === "application/pdf") return { kind: "pdf", mimeType: mime };
  const ext = extensionOf(name);
  if (!mime || mime === "application/octet-stream") {
    const image = IMAGE_EXTENSIONS[ext];
    if (image) return { kind: "image", mimeType: image };
    if (ext === "pdf") return { kind: "pdf", mimeType: "application/pdf" };
  }
  if (TEXT_MIME.test(mime) || TEXT_EXTENSIONS.has(ext)) return { kind: "text", mimeType: mime || "text/plain" };
  return null;
}

/** The `accept` list of the file picker. */
export const ACCEPT_ATTRIBUTE = [
  ...IMAGE_TYPES,
  "application/pdf",
  "text/*",
  "application/json",
  ...Array.from(TEXT_EXTENSIONS, (e) => `.${e}`),
].join(",");

/**
 * Pages in a PDF, counted from its page objects (`/Type /Page`, not `/Pages`) in the raw bytes.
 * An estimate: pages inside compressed object streams are not seen (then null, and the size decides).
 */
export function countPdfPages(bytes: Uint8Array): number | null {
  // Latin-1 keeps one character per byte, so the PDF's ASCII keywords survive any binary around them.
  const text = new TextDecoder("latin1").decode(bytes);
  const count = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return count > 0 ? count : null;
}
