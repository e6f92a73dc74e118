/**
 * The conversations files inside a ChatGPT data export .zip. Only `conversations.json` or
 * `conversations-NNN.json` (at any folder depth) are inflated; every other entry — images, audio,
 * chat.html, and any name with `..` or an absolute path — is ignored, never written anywhere. The
 * sizes in the zip's directory are summed before anything is inflated, so a zip that would unpack
 * past the import limit is refused without unpacking it.
 */
import { unzipSync } from "fflate";
import { IMPORT_LIMITS } from "../../core/export/import-file";
import { formatBytes } from "../../core/format-bytes";

export type ZipConversations =
  | { kind: "ok"; files: { name: string; text: string }[] }
  | { kind: "error"; message: string };

const CONVERSATIONS = /(^|\/)conversations(-\d+)?\.json$/i;

/** Zip files start with a local file header, "PK\x03\x04". */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

const safeName = (name: string): boolean =>
  !name.startsWith("/") && !name.includes("\\") && !name.split("/").includes("..");

export function readZipConversations(bytes: Uint8Array, zipName: string): ZipConversations {
  const limit = IMPORT_LIMITS.maxFileBytes;
  let total = 0;
  let tooBig = false;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, {
      filter: (file) => {
        if (!safeName(file.name) || !CONVERSATIONS.test(file.name)) return false;
        total += file.originalSize;
        if (total > limit) tooBig = true;
        // Once past the limit nothing more is inflated; the error below is what the user sees.
        return !tooBig;
      },
    });
  } catch (e) {
    return {
      kind: "error",
      message: `${zipName} could not be read as a zip: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  if (tooBig) {
    return {
      kind: "error",
      message: `The conversations in ${zipName} unpack to more than ${formatBytes(limit)}; Grove imports up to ${formatBytes(limit)}.`,
    };
  }
  const names = Object.keys(unzipped).sort();
  if (names.length === 0) {
    return {
      kind: "error",
      message: `${zipName} holds no conversations file (conversations.json or conversations-000.json…): is it a ChatGPT data export?`,
    };
  }
  const decoder = new TextDecoder("utf-8");
  return { kind: "ok", files: names.map((name) => ({ name, text: decoder.decode(unzipped[name]) })) };
}
