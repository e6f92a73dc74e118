import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useState } from "react";
import type { BlobId } from "../../core/session/ids";
import { liveBlob } from "../../db/live";

/** An object URL for a stored attachment (revoked when the component goes), or null while it loads or when it is gone. */
export function useBlobUrl(id: BlobId): string | null {
  const blob = useLiveQuery(() => liveBlob(id), [id]);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}
