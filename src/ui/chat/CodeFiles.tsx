import { formatBytes } from "../../core/format-bytes";
import { type ProducedFile, producedFiles, type StoredCodeFile, storedCodeFiles } from "../../core/session/code-files";
import type { Entry, ServerToolBlock } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { downloadCodeFiles, useCodeFilesStore } from "../../state/tools/code-files";
import { useBlobUrl } from "./use-blob-url";

/** A stored file: a link that saves it (the URL's type is sniffed: nothing stored renders as a page). */
function StoredFile({ file }: { file: StoredCodeFile }) {
  const url = useBlobUrl(file.blobId);
  return (
    <li className="code-file">
      {url ? (
        <a href={url} download={file.name} aria-label={`Download ${file.name}`}>
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
  const name = file.name ?? file.fileId;
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
 * The files a code execution produced (issue 28), under its block: stored ones open or save from
 * their blob; the others show their state (core/session/code-files.ts, state/tools/code-files.ts).
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
        return got ? <StoredFile key={f.key} file={got} /> : <PendingFile key={f.key} sessionId={sessionId} file={f} />;
      })}
    </ul>
  );
}
