/**
 * Reads an import file as text in chunks, reporting bytes read as it goes: a 100 MB file takes
 * long enough that the user must see it move. Decoding is streaming UTF-8 (a chunk may end inside
 * a character); malformed bytes become U+FFFD rather than failing, and the parser then says where.
 */
export async function readFileText(
  file: Blob,
  onBytes: (bytesRead: number) => void,
  isCancelled: () => boolean = () => false,
): Promise<string> {
  const reader = file.stream().getReader();
  const decoder = new TextDecoder("utf-8");
  const parts: string[] = [];
  let read = 0;
  try {
    for (;;) {
      if (isCancelled()) throw new DOMException("The import was cancelled.", "AbortError");
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      parts.push(decoder.decode(value, { stream: true }));
      onBytes(read);
    }
  } finally {
    reader.releaseLock();
  }
  parts.push(decoder.decode());
  return parts.join("");
}
