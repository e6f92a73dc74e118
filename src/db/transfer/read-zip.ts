/**
 * A ChatGPT data export .zip: its conversations files (`conversations.json` or
 * `conversations-NNN.json`, at any folder depth), and the files its messages point at — uploads
 * and generated images, named by ChatGPT's file id: `file-AbC…-photo.jpg`, `file_00…-<uuid>.png`
 * (also under `dalle-generations/` or a user folder), or `<id>.dat` with the real names in
 * `conversation_asset_file_names.json`. Everything else (chat.html, audio, user.json) is left
 * packed, and a name with `..`, a backslash or an absolute path is never read.
 *
 * The sizes a zip states are not trusted (issue 30, item 5: a zip bomb says its files are small):
 * files are inflated as a stream, the zip fed a slice at a time, counting the bytes actually
 * produced, and inflating stops once they pass the import limit ("This archive expands beyond N").
 * Assets are only inflated when asked for (`inflateZipFiles`), a few at a time.
 */
import { Unzip, UnzipInflate } from "fflate";
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

/** The zip is fed to the inflater this many bytes at a time: one step makes at most ~1,000× this (deflate's ratio). */
const FEED_BYTES = 64 * 1024;

type Inflated =
  | { kind: "ok"; files: Map<string, Uint8Array> }
  /** Inflating stopped once the bytes produced passed the limit; `files` holds those finished before. */
  | { kind: "too-big"; files: Map<string, Uint8Array> }
  | { kind: "error"; message: string };

/**
 * Inflates the files `wanted` says yes to (it sees each name and the size the zip claims, which
 * is never trusted), stopping once more than `limit` bytes came out of them together.
 */
function inflateBounded(
  bytes: Uint8Array,
  wanted: (file: { name: string; claimedSize: number }) => boolean,
  limit: number,
): Inflated {
  const files = new Map<string, Uint8Array>();
  let produced = 0;
  let over = false;
  let failure: string | null = null;
  const unzip = new Unzip((file) => {
    if (over || failure !== null || files.has(file.name)) return;
    if (!wanted({ name: file.name, claimedSize: file.originalSize ?? 0 })) return;
    const chunks: Uint8Array[] = [];
    file.ondata = (err, data, final) => {
      if (over || failure !== null) return;
      if (err) {
        failure = err.message;
        return;
      }
      produced += data.length;
      if (produced > limit) {
        over = true;
        chunks.length = 0;
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) files.set(file.name, joined(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !over && failure === null; at += FEED_BYTES) {
      unzip.push(bytes.subarray(at, at + FEED_BYTES), at + FEED_BYTES >= bytes.length);
    }
  } catch (e) {
    failure = e instanceof Error ? e.message : String(e);
  }
  if (over) return { kind: "too-big", files };
  if (failure !== null) return { kind: "error", message: failure };
  return { kind: "ok", files };
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** `limit`: the bytes the conversations may unpack to (the import limit; tests pass a small one). */
export function readZipExport(bytes: Uint8Array, zipName: string, limit = IMPORT_LIMITS.maxFileBytes): ZipExport {
  const assets: ZipAssetFile[] = [];
  const inflated = inflateBounded(
    bytes,
    ({ name, claimedSize }) => {
      if (!safeName(name)) return false;
      if (CONVERSATIONS.test(name) || ASSET_NAMES.test(name)) return true;
      const id = assetIdOf(name);
      if (id && !name.endsWith("/")) assets.push({ path: name, id, size: claimedSize });
      return false;
    },
    limit,
  );
  if (inflated.kind === "error") {
    return { kind: "error", message: `${zipName} could not be read as a zip: ${inflated.message}` };
  }
  if (inflated.kind === "too-big") {
    return {
      kind: "error",
      message: `This archive expands beyond ${formatBytes(limit)}: ${zipName} was not imported (Grove imports up to ${formatBytes(limit)}).`,
    };
  }
  const unzipped = inflated.files;
  const decoder = new TextDecoder("utf-8");
  const names = [...unzipped.keys()].sort();
  const textOf = (name: string): string => decoder.decode(unzipped.get(name));
  const conversations = names.filter((n) => CONVERSATIONS.test(n));
  if (conversations.length === 0) {
    return {
      kind: "error",
      message: `${zipName} holds no conversations file (conversations.json or conversations-000.json…): is it a ChatGPT data export?`,
    };
  }
  const friendly = assetNames(names.filter((n) => ASSET_NAMES.test(n)).map(textOf));
  return {
    kind: "ok",
    files: conversations.map((name) => ({ name, text: textOf(name) })),
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
 * The bytes of the zip's files at `paths`, inflating at most ASSET_BYTES together, counted as they
 * come out (the sizes the zip claims only skip a file that says it is too big; the rest are left
 * out, as if missing). `onFile` gets each one as it is inflated, a batch held at a time.
 */
export async function inflateZipFiles(
  bytes: Uint8Array,
  files: readonly ZipAssetFile[],
  onFile: (file: ZipAssetFile, data: Uint8Array) => Promise<void>,
  limit = ASSET_BYTES,
): Promise<void> {
  let budget = limit;
  const BATCH = 16;
  for (let i = 0; i < files.length && budget > 0; i += BATCH) {
    const batch = files.slice(i, i + BATCH).filter((f) => f.size <= budget);
    if (batch.length === 0) continue;
    const wanted = new Set(batch.map((f) => f.path));
    const inflated = inflateBounded(bytes, ({ name }) => wanted.has(name), budget);
    if (inflated.kind === "error") return;
    for (const f of batch) {
      const data = inflated.files.get(f.path);
      if (!data) continue;
      budget -= data.length;
      await onFile(f, data);
    }
    if (inflated.kind === "too-big") return;
  }
}
