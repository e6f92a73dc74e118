import { useState } from "react";
import { formatBytes } from "../../core/format-bytes";
import type { DocumentBlock, ImageBlock, TextFileBlock } from "../../core/session/entries";
import { Dialog } from "../common/Dialog";
import "./attachments.css";
import { useBlobUrl } from "./use-blob-url";

/** An image in a sent message: a thumbnail that opens the image larger. */
export function MessageImage({ block }: { block: ImageBlock }) {
  const url = useBlobUrl(block.blobId);
  const [open, setOpen] = useState(false);
  const name = block.name ?? "image";
  if (!url) return <div className="attachment-missing muted">[image: {name}]</div>;
  return (
    <>
      <button type="button" className="message-image" aria-label={`Open image ${name}`} onClick={() => setOpen(true)}>
        <img src={url} alt={name} />
      </button>
      {open && (
        <Dialog title={name} wide onClose={() => setOpen(false)}>
          <img className="image-large" src={url} alt={name} />
        </Dialog>
      )}
    </>
  );
}

/** A PDF or a text file in a sent message: a chip with its name (a text file's text unfolds). */
export function MessageFileChip({ block }: { block: DocumentBlock | TextFileBlock }) {
  if (block.type === "document") {
    return (
      <div className="file-chip">
        <span className="attachment-icon">PDF</span> {block.name}
        <span className="attachment-meta">
          {" "}
          · {formatBytes(block.size)}
          {block.pages ? ` · ${block.pages} ${block.pages === 1 ? "page" : "pages"}` : ""}
        </span>
      </div>
    );
  }
  return (
    <details className="file-chip">
      <summary>
        <span className="attachment-icon">TXT</span> {block.name}
      </summary>
      <pre>{block.text}</pre>
    </details>
  );
}
