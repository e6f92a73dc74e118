import { formatBytes } from "../../core/format-bytes";
import type { AttachmentBlock, ImageBlock } from "../../core/session/entries";
import "./attachments.css";
import { attachmentCost, attachmentKind, attachmentName, attachmentSize } from "./attachment-cost";
import { formatTokens } from "./maintenance-text";
import { useBlobUrl } from "./use-blob-url";

function Thumbnail({ block }: { block: ImageBlock }) {
  const url = useBlobUrl(block.blobId);
  return url ? <img className="attachment-thumb" src={url} alt="" /> : <span className="attachment-thumb" />;
}

/**
 * The composer's attachments before sending: each a chip with a preview (a thumbnail for an image;
 * kind and size for a file), its token cost, and "Remove <name>". `problem` says in words why they
 * cannot be sent as they are (limits, a model that reads no images); `pending` counts files still
 * being read.
 */
export function AttachmentTray({
  attachments,
  pending,
  problem,
  onRemove,
}: {
  attachments: readonly AttachmentBlock[];
  pending: number;
  problem: string | null;
  onRemove: (index: number) => void;
}) {
  if (attachments.length === 0 && pending === 0 && !problem) return null;
  return (
    <div className="attachment-tray">
      {attachments.length > 0 && (
        <ul className="attachment-list" aria-label="Attachments">
          {attachments.map((block, i) => {
            const name = attachmentName(block);
            const size = attachmentSize(block);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the same file may be attached twice; position is its identity here
              <li key={`${name}-${i}`} className="attachment-chip">
                {block.type === "image" ? (
                  <Thumbnail block={block} />
                ) : (
                  <span className="attachment-thumb attachment-icon" aria-hidden="true">
                    {attachmentKind(block)}
                  </span>
                )}
                <span className="attachment-facts">
                  <span className="attachment-name">{name}</span>
                  <span className="attachment-meta">
                    {attachmentKind(block)}
                    {size !== undefined ? ` · ${formatBytes(size)}` : ""} · ≈{formatTokens(attachmentCost(block))}{" "}
                    tokens
                  </span>
                </span>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${name}`}
                  title={`Remove ${name}`}
                  onClick={() => onRemove(i)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {pending > 0 && (
        <p className="attachment-pending muted" role="status">
          Reading {pending === 1 ? "a file" : `${pending} files`}…
        </p>
      )}
      {problem && (
        <p className="attachment-problem" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
