/**
 * Reads an import file in chunks, reporting bytes read as it goes: a 100 MB file takes long enough
 * that the user must see it move. The bytes are gathered into one buffer of the file's size (the
 * caller decodes text once, or unpacks a zip).
 */
export async function readFileBytes(
  file: Blob,
  onBytes: (bytesRead: number) => void,
  isCancelled: () => boolean = () => false,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(file.size);
  const reader = file.stream().getReader();
  let read = 0;
  try {
    for (;;) {
      if (isCancelled()) throw new DOMException("The import was cancelled.", "AbortError");
      const { done, value } = await reader.read();
      if (done) break;
      if (read + value.byteLength > bytes.byteLength) throw new Error("the file changed while it was read");
      bytes.set(value, read);
      read += value.byteLength;
      onBytes(read);
    }
  } finally {
    reader.releaseLock();
  }
  return read === bytes.byteLength ? bytes : bytes.subarray(0, read);
}
