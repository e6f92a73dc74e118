/**
 * A `data:` URL's bytes and declared type, decoded here: the CSP's connect-src allows no `data:`
 * fetches, and nothing needs the network for bytes already in hand. The declared type is only a
 * claim: what the bytes are is sniffed (sniff.ts). Pure: no I/O.
 */
export type DecodedDataUrl = { mimeType: string; bytes: Uint8Array };

/** `data:[<type>][;params][;base64],<data>`; undefined when `url` is not one or its data does not decode. */
export function decodeDataUrl(url: string): DecodedDataUrl | undefined {
  const m = /^data:([^,]*),(.*)$/is.exec(url.trim());
  if (!m) return undefined;
  const params = (m[1] ?? "").split(";").map((p) => p.trim());
  const isBase64 = params.some((p) => p.toLowerCase() === "base64");
  const mimeType = params[0]?.includes("/") ? (params[0] ?? "").toLowerCase() : "text/plain";
  const data = m[2] ?? "";
  try {
    // atob here rather than blob-id.ts's base64ToBytes: importing that from this on-demand code moves it
    // (now in an SDK's chunk) into the first screen's bundle.
    const bytes = isBase64
      ? Uint8Array.from(atob(decodeURIComponent(data).replace(/\s+/g, "")), (c) => c.charCodeAt(0))
      : new TextEncoder().encode(decodeURIComponent(data));
    return { mimeType, bytes };
  } catch {
    return undefined;
  }
}
