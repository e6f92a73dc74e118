/**
 * Files a provider's code execution produced (issue 28 item 2), as attachments. The reply keeps the
 * provider's ids (`ServerToolBlock.produced`); after the reply Grove downloads each file into a blob
 * and appends a `custom` entry of type `grove.code-files` at the leaf naming the stored files (as pins
 * do): entries stay immutable, the record syncs and exports with the conversation, and its blobs are
 * referenced like an attachment's (blob-id.ts `blobIdsOfEntry`). A record on the path wins for its
 * file; a path from before it shows the file as not downloaded.
 *
 * Pure: no I/O.
 */

import { CODE_FILES_CUSTOM_TYPE } from "./code-files-record";
import type { ApiKind, Block, CustomDataEntry, Entry, ProducedFileRef, ServerToolBlock } from "./entries";
import type { BlobId } from "./ids";

/** A produced file waiting for its bytes: which provider made it and its ids. */
export type ProducedFile = {
  /** Unique per file (container + file id). */
  readonly key: string;
  readonly api: ApiKind;
  /** The provider config id whose key downloads it. */
  readonly provider: string;
  readonly fileId: string;
  readonly containerId?: string;
  /** Known for OpenAI (the citation's file name); Anthropic's comes with the download. */
  readonly name?: string;
  /** An image output's address (no file id of its own): a `data:` URL, decoded here, or https. */
  readonly url?: string;
};

/** A produced file stored as a blob. */
export type StoredCodeFile = {
  readonly key: string;
  readonly fileId: string;
  readonly containerId?: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly blobId: BlobId;
};

export type CodeFilesEntry = CustomDataEntry & {
  readonly customType: typeof CODE_FILES_CUSTOM_TYPE;
  readonly data: { readonly files: readonly StoredCodeFile[] };
};

const producedFileKey = (fileId: string, containerId?: string): string => `${containerId ?? ""}/${fileId}`;

/**
 * A block's file refs: `produced`; for a block stored before it carried them, its `files` (Anthropic's
 * file ids; OpenAI's image output URLs, which then only named the images).
 */
function refsOf(b: ServerToolBlock): readonly ProducedFileRef[] {
  if (b.api === "anthropic-messages") return b.produced ?? (b.files ?? []).map((fileId) => ({ fileId }));
  const produced = b.produced ?? [];
  if (produced.some((r) => r.url !== undefined)) return produced;
  const images = (b.files ?? []).map((url, i) => ({ fileId: `${b.callId}/image-${(i + 1).toString()}`, url }));
  return [...images, ...produced];
}

/** The files the code execution blocks of `blocks` produced, each once, in order. */
export function producedFiles(blocks: readonly Block[]): ProducedFile[] {
  const out = new Map<string, ProducedFile>();
  for (const b of blocks) {
    if (b.type !== "server_tool" || b.tool !== "code_execution") continue;
    for (const ref of refsOf(b)) {
      const key = producedFileKey(ref.fileId, ref.containerId);
      if (out.has(key) || ref.fileId === "") continue;
      out.set(key, {
        key,
        api: b.api,
        provider: b.provider,
        fileId: ref.fileId,
        ...(ref.containerId ? { containerId: ref.containerId } : {}),
        ...(ref.name ? { name: ref.name } : {}),
        ...(ref.url ? { url: ref.url } : {}),
      });
    }
  }
  return [...out.values()];
}

const isStoredFile = (f: unknown): f is StoredCodeFile => {
  if (typeof f !== "object" || f === null) return false;
  const { key, fileId, name, mimeType, size, blobId } = f as Partial<StoredCodeFile>;
  return (
    typeof key === "string" &&
    typeof fileId === "string" &&
    typeof name === "string" &&
    typeof mimeType === "string" &&
    typeof blobId === "string" &&
    Number.isInteger(size)
  );
};

export function isCodeFilesEntry(e: Entry): e is CodeFilesEntry {
  if (e.type !== "custom" || e.customType !== CODE_FILES_CUSTOM_TYPE) return false;
  const d = e.data as { files?: unknown } | null | undefined;
  return typeof d === "object" && d !== null && Array.isArray(d.files) && d.files.every(isStoredFile);
}

/** The record entry's content (the caller adds id, sessionId, parentId, createdAt). */
export const codeFilesData = (
  files: readonly StoredCodeFile[],
): { customType: typeof CODE_FILES_CUSTOM_TYPE; data: { files: StoredCodeFile[] } } => ({
  customType: CODE_FILES_CUSTOM_TYPE,
  data: { files: files.map((f) => ({ ...f })) },
});

/** The produced files stored on `entries` (a path), by key; a later record wins. */
export function storedCodeFiles(entries: Iterable<Entry>): Map<string, StoredCodeFile> {
  const out = new Map<string, StoredCodeFile>();
  for (const e of entries) if (isCodeFilesEntry(e)) for (const f of e.data.files) out.set(f.key, f);
  return out;
}

/** The produced files of `path` no record on it has stored yet. */
export function missingCodeFiles(path: readonly Entry[]): ProducedFile[] {
  const stored = storedCodeFiles(path);
  const out: ProducedFile[] = [];
  for (const e of path)
    if (e.type === "message" && e.role === "assistant")
      for (const f of producedFiles(e.content)) if (!stored.has(f.key)) out.push(f);
  return out;
}

/**
 * The name a stored file is saved under: the provider's name, else (an image output has none) "chart";
 * with the extension of its type when it has none (`chart` → `chart.png`). `type`: what its bytes were
 * sniffed as, else what was claimed (it names a download; it never decides what is shown).
 */
export function storedFileName(name: string | undefined, type: string | undefined): string {
  const base = name?.trim() || "chart";
  const ext = type ? EXTENSIONS[type] : undefined;
  return ext && !/\.[A-Za-z0-9]{1,5}$/.test(base) ? `${base}.${ext}` : base;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "application/pdf": "pdf",
  "image/svg+xml": "svg",
};
