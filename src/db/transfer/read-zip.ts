/**
 * A ChatGPT data export .zip: its conversations files (`conversations.json` or
 * `conversations-NNN.json`, at any folder depth), and the files its messages point at — uploads
 * and generated images, named by ChatGPT's file id: `file-AbC…-photo.jpg`, `file_00…-<uuid>.png`
 * (also under `dalle-generations/` or a user folder), or `<id>.dat` with the real names in
 * `conversation_asset_file_names.json`. Everything else (chat.html, audio, user.json) is left
 * packed, and a name with `..`, a backslash or an absolute path is never read.
 *
 * The sizes in the zip's directory are summed before anything is inflated, so a zip that would
 * unpack past the import limit is refused without unpacking it. Files are only inflated when
 * asked for (`inflateZipFiles`), a few at a time.
 */
import { unzipSync } from "fflate";
import { IMPORT_LIMITS } from "../../core/export/import-file";
import { formatBytes } from "../../core/format-bytes";

/** A file of the zip that an asset pointer may name. `id`: ChatGPT's file id. */
export type ZipAssetFile = {
  readonly path: string;
  readonly id: string;
  readonly size: number;
  readonly name?: string;
};

export type ZipExport =
  | { kind: "ok"; files: { name: string; text: string }[]; assets: ZipAssetFile[] }
  | { kind: "error"; message: string };

const CONVERSATIONS = /(^|\/)conversations(-\d+)?\.json$/i;
const ASSET_NAMES = /(^|\/)conversation_asset_file_names\.json$/i;
/** `file-AbC123…` / `file_00000000…` at the start of a file name, then `-`, `.` or the end. */
const FILE_ID = /^(file[-_][A-Za-z0-9]+)(?=$|[-.])/;
/** Assets read at most: the zip itself is within the import limit, its images with it. */
const ASSET_BYTES = IMPORT_LIMITS.maxFileBytes;

/** Zip files start with a local file header, "PK\x03\x04". */
export function isZip(head: Uint8Array): boolean {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

const safeName = (name: string): boolean =>
  !name.startsWith("/") && !name.includes("\\") && !name.split("/").includes("..");

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** The file id an entry's name carries, or undefined for a file no pointer names. */
function assetIdOf(path: string): string | undefined {
  const base = baseName(path);
  if (base.toLowerCase().endsWith(".dat")) return base.slice(0, -4) || undefined;
  return FILE_ID.exec(base)?.[1];
}

export function readZipExport(bytes: Uint8Array, zipName: string): ZipExport {
  const limit = IMPORT_LIMITS.maxFileBytes;
  let total = 0;
  let tooBig = false;
  const assets: ZipAssetFile[] = [];
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, {
      filter: (file) => {
        if (!safeName(file.name)) return false;
        if (!CONVERSATIONS.test(file.name) && !ASSET_NAMES.test(file.name)) {
          const id = assetIdOf(file.name);
          if (id && !file.name.endsWith("/")) assets.push({ path: file.name, id, size: file.originalSize });
          return false;
        }
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
  const decoder = new TextDecoder("utf-8");
  const names = Object.keys(unzipped).sort();
  const conversations = names.filter((n) => CONVERSATIONS.test(n));
  if (conversations.length === 0) {
    return {
      kind: "error",
      message: `${zipName} holds no conversations file (conversations.json or conversations-000.json…): is it a ChatGPT data export?`,
    };
  }
  const friendly = assetNames(names.filter((n) => ASSET_NAMES.test(n)).map((n) => decoder.decode(unzipped[n])));
  return {
    kind: "ok",
    files: conversations.map((name) => ({ name, text: decoder.decode(unzipped[name]) })),
    assets: assets.map((a) => {
      const name = friendly.get(baseName(a.path)) ?? friendly.get(a.path) ?? friendly.get(a.id);
      return name ? { ...a, name } : a;
    }),
  };
}

/** `conversation_asset_file_names.json`: `{ "<file>.dat": "photo.jpg" }`; anything else in it is ignored. */
function assetNames(texts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of texts) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) continue;
      for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") out.set(key, value);
    } catch {
      // a broken name list only costs the names
    }
  }
  return out;
}

/**
 * The bytes of the zip's files at `paths`, inflating at most ASSET_BYTES together (the rest are
 * left out, as if missing). `onFile` gets each one as it is inflated, so only one is held at a time.
 */
export async function inflateZipFiles(
  bytes: Uint8Array,
  files: readonly ZipAssetFile[],
  onFile: (file: ZipAssetFile, data: Uint8Array) => Promise<void>,
): Promise<void> {
  let budget = ASSET_BYTES;
  const BATCH = 16;
  for (let i = 0; i < files.length; i += BATCH) {
    const batch = files.slice(i, i + BATCH).filter((f) => {
      if (f.size > budget) return false;
      budget -= f.size;
      return true;
    });
    if (batch.length === 0) continue;
    const wanted = new Set(batch.map((f) => f.path));
    const inflated = unzipSync(bytes, { filter: (f) => wanted.has(f.name) });
    for (const f of batch) {
      const data = inflated[f.path];
      if (data) await onFile(f, data);
    }
  }
}
