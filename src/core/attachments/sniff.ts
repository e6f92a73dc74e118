/**
 * What a file's bytes are, from their first bytes (magic numbers), never from the name or type a
 * file claims: an import once stored HTML under `image/png`, and its blob URL ran script at Grove's
 * origin (issue 24.1). Only the types sniffed here are stored, shown or opened inline; anything
 * else is bytes to download. Pure: no I/O.
 */

const ascii = (b: Uint8Array, from: number, to: number): string => String.fromCharCode(...b.subarray(from, to));

/** The kinds of file a message can show: raster images a provider accepts (inert: no script), and PDFs. */
const SNIFFED: readonly { mimeType: string; test: (b: Uint8Array) => boolean }[] = [
  { mimeType: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { mimeType: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimeType: "image/gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
  { mimeType: "image/webp", test: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP" },
  { mimeType: "application/pdf", test: (b) => ascii(b, 0, 5) === "%PDF-" },
];

/** Bytes enough for every test above. */
export const SNIFF_BYTES = 16;

/** What the bytes are (PNG, JPEG, GIF, WebP or PDF), or undefined: SVG, HTML and the rest are not recognised. */
export function sniffMimeType(bytes: Uint8Array): string | undefined {
  return SNIFFED.find((s) => s.test(bytes))?.mimeType;
}

/**
 * The type a stored file's object URL gets: its sniffed raster image type, else
 * `application/octet-stream`, which a browser downloads and never renders (no HTML, no SVG script).
 */
export function inlineTypeOf(bytes: Uint8Array): string {
  const sniffed = sniffMimeType(bytes);
  return sniffed?.startsWith("image/") ? sniffed : "application/octet-stream";
}
