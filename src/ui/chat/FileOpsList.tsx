import "./file-ops.css";
import { storedFileOps } from "../../core/compaction/file-ops";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * The files a summary's conversation read and changed (core/compaction/file-ops.ts), as stored on
 * a compaction or branch summary: a count, and the paths when opened.
 */
export function FileOpsList({ details }: { details: unknown }) {
  const ops = storedFileOps(details);
  if (!ops) return null;
  return (
    <details className="file-ops">
      <summary>
        Files: {plural(ops.readFiles.length, "file")} read, {plural(ops.modifiedFiles.length, "file")} modified
      </summary>
      {ops.modifiedFiles.length > 0 && (
        <section aria-label="Modified files">
          <h4>Modified</h4>
          <ul>
            {ops.modifiedFiles.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      {ops.readFiles.length > 0 && (
        <section aria-label="Read files">
          <h4>Read</h4>
          <ul>
            {ops.readFiles.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </details>
  );
}
