import { useState } from "react";
import { formatBytes } from "../../core/format-bytes";
import { type ProducedFile, producedFiles, type StoredCodeFile, storedCodeFiles } from "../../core/session/code-files";
import type { Entry, ServerToolBlock } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { downloadCodeFiles, useCodeFilesStore } from "../../state/tools/code-files";
import { Dialog } from "../common/Dialog";
import { type BlobView, useBlobView } from "./use-blob-image";

/** The accessible name of an image output, which has no file name of its own. */
const CHART_ALT = "Chart produced by code execution";

/** What a file is called on screen before it is stored: its name, else (an image output) "the chart". */
const pendingName = (file: ProducedFile): string => file.name ?? (file.url ? "the chart" : file.fileId);

/** An image the code made, from its blob: shown under the block; a click (or Enter) opens it full size. */
function StoredImage({ view, alt }: { view: BlobView; alt: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="code-image" aria-label={`Open image ${alt}`} onClick={() => setOpen(true)}>
        <img src={view.url} alt={alt} />
      </button>
      {open && (
        <Dialog title={alt} wide onClose={() => setOpen(false)}>
          <img className="code-image-large" src={view.url} alt={alt} />
        </Dialog>
      )}
    </>
  );
}

/**
 * A stored file: a link that saves it, and above it the image when its bytes are a raster image
 * (sniffed; an SVG or anything else is a download only: nothing stored renders as a page).
 */
function StoredFile({ produced, file }: { produced: ProducedFile; file: StoredCodeFile }) {
  const view = useBlobView(file.blobId);
  return (
    <li className="code-file">
      {view?.image && <StoredImage view={view} alt={produced.url ? CHART_ALT : file.name} />}
      {view ? (
        <a href={view.url} download={file.name} aria-label={`Download ${file.name}`}>
          {file.name}
        </a>
      ) : (
        <span>{file.name}</span>
      )}
      <span className="attachment-meta"> · {formatBytes(file.size)}</span>
    </li>
  );
}

/** A file not stored (yet): downloading, failed with Retry, or (after a reload, another branch) Download. */
function PendingFile({ sessionId, file }: { sessionId: SessionId; file: ProducedFile }) {
  const status = useCodeFilesStore((s) => s.status[file.key]);
  const name = pendingName(file);
  const start = () => void downloadCodeFiles(sessionId, [file]);
  if (status?.kind === "downloading")
    return (
      <li className="code-file muted" aria-busy="true">
        Downloading {name}…
      </li>
    );
  return (
    <li className="code-file">
      {status?.kind === "failed" ? (
        <span role="alert" className="code-file-error">
          Couldn't download {name}: {status.message}
        </span>
      ) : (
        <span>{name}</span>
      )}{" "}
      <button type="button" className="small" onClick={start}>
        {status?.kind === "failed" ? "Retry" : "Download"}
      </button>
    </li>
  );
}

/**
 * The files a code execution produced (issue 28), under its block: stored ones save from their blob,
 * and an image among them (a chart) shows from it; the others show their state (core/session/code-files.ts, state/tools/code-files.ts).
 */
export function CodeFiles({
  sessionId,
  blocks,
  path,
}: {
  sessionId: SessionId;
  blocks: readonly ServerToolBlock[];
  path: readonly Entry[];
}) {
  const files = producedFiles(blocks);
  if (files.length === 0) return null;
  const stored = storedCodeFiles(path);
  return (
    <ul className="code-files" aria-label="Files produced">
      {files.map((f) => {
        const got = stored.get(f.key);
        return got ? (
          <StoredFile key={f.key} produced={f} file={got} />
        ) : (
          <PendingFile key={f.key} sessionId={sessionId} file={f} />
        );
      })}
    </ul>
  );
}
