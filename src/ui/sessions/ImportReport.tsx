import "./import-report.css";
import { useId, useState } from "react";
import { dismissImportReport, useImportReportStore } from "../../state/transfer/import-store";

/**
 * What the last import did, in the chat column above the composer (in the flow, so it never covers
 * a message): the counts as a status, and "Show skipped" listing each conversation of the file that
 * could not be read, with why. Stays until dismissed or the next import.
 */
export function ImportReport() {
  const report = useImportReportStore((s) => s.report);
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (!report) return null;
  const { unreadable } = report;
  return (
    <section className="import-report" aria-label="Import result">
      <div className="import-report-line">
        <p role="status">{report.text}</p>
        {unreadable.length > 0 && (
          <button type="button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
            {open ? "Hide skipped" : "Show skipped"}
          </button>
        )}
        <button
          type="button"
          className="icon-button"
          aria-label="Dismiss"
          onClick={() => {
            setOpen(false);
            dismissImportReport();
          }}
        >
          ×
        </button>
      </div>
      {open && (
        <ul id={listId} className="import-report-skipped" aria-label="Skipped conversations">
          {unreadable.map((s, i) => (
            // Titles repeat ("Untitled"), and the list never changes while shown: the index is the key.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, see above
            <li key={i}>
              <span className="import-report-title">{s.title}</span>
              <span className="muted"> — {s.reason}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
