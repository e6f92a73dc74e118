import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { inlineTypeOf, SNIFF_BYTES } from "../../core/attachments/sniff";
import type { BlobId } from "../../core/session/ids";
import { liveBlob } from "../../db/live";

/**
 * An object URL for a stored attachment (revoked when the component goes), or null while it loads or
 * when it is gone. The URL's type comes from the bytes, never from the stored type: a raster image
 * shows; anything else (HTML, SVG) is `application/octet-stream`, which a tab downloads and never
 * renders, so no stored file runs script at Grove's origin (issue 24.1).
 */
export function useBlobUrl(id: BlobId): string | null {
  const blob = useLiveQuery(() => liveBlob(id), [id]);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    let next: string | null = null;
    let gone = false;
    void blob
      .slice(0, SNIFF_BYTES)
      .arrayBuffer()
      .then((head) => {
        if (gone) return;
        next = URL.createObjectURL(new Blob([blob], { type: inlineTypeOf(new Uint8Array(head)) }));
        setUrl(next);
      });
    return () => {
      gone = true;
      if (next) URL.revokeObjectURL(next);
    };
  }, [blob]);
  return url;
}
