import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import { inlineTypeOf, SNIFF_BYTES } from "../../core/attachments/sniff";
import type { BlobId } from "../../core/session/ids";
import { liveBlob } from "../../db/live";

/** A stored file's object URL and whether its bytes are a raster image (PNG, JPEG, GIF, WebP). */
export type BlobView = { url: string; image: boolean };

/**
 * Like useBlobUrl (same rule: the URL's type is sniffed from the bytes; an SVG or HTML file is
 * `application/octet-stream`, saved and never rendered), and says whether the bytes are an image, so
 * a code execution's chart shows as one and anything else as a download. Apart from use-blob-url.ts
 * so the first screen does not carry it. Revoked when the component goes.
 */
export function useBlobView(id: BlobId): BlobView | null {
  const blob = useLiveQuery(() => liveBlob(id), [id]);
  const [view, setView] = useState<BlobView | null>(null);
  useEffect(() => {
    if (!blob) {
      setView(null);
      return;
    }
    let url: string | null = null;
    let gone = false;
    void blob
      .slice(0, SNIFF_BYTES)
      .arrayBuffer()
      .then((head) => {
        if (gone) return;
        const type = inlineTypeOf(new Uint8Array(head));
        url = URL.createObjectURL(new Blob([blob], { type }));
        setView({ url, image: type.startsWith("image/") });
      });
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [blob]);
  return view;
}
