/**
 * What the first screen needs of a code-files record (code-files.ts): its custom type and the blobs
 * it keeps alive (blob-id.ts, read by the collector and the export). Apart from code-files.ts so the
 * first screen's bundle does not carry the rest. Pure: no I/O.
 */
import type { Entry } from "./entries";
import type { BlobId } from "./ids";

export const CODE_FILES_CUSTOM_TYPE = "grove.code-files";

/** The blob ids a `grove.code-files` record names (none for any other entry; a non-string id names none). */
export function codeFilesBlobIds(e: Entry): BlobId[] {
  if (e.type !== "custom" || e.customType !== CODE_FILES_CUSTOM_TYPE) return [];
  const files = (e.data as { files?: unknown } | null | undefined)?.files;
  if (!Array.isArray(files)) return [];
  return files.flatMap((f) => {
    const id = (f as { blobId?: unknown } | null)?.blobId;
    return typeof id === "string" ? [id as BlobId] : [];
  });
}
