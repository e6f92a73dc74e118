import { useRef } from "react";
import { importFile } from "../../state/app/lazy";

/**
 * "Import" in the sessions list: a button that opens the file picker. The file input itself is
 * visually hidden and labelled "Import file", so automation can hand it a file directly.
 */
export function ImportControls() {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        title="Import a Grove JSON export, a ChatGPT export (conversations.json, its split conversations-NNN.json files, or the .zip), a Claude.ai conversations.json or a pi session .jsonl (or drop the files on the window)"
        onClick={() => input.current?.click()}
      >
        Import
      </button>
      <input
        ref={input}
        className="sr-only"
        type="file"
        aria-label="Import file"
        // The Import button is the control people reach; a second "button" (Chromium exposes file
        // inputs as buttons) named "Import file" would only repeat it for screen readers.
        aria-hidden="true"
        tabIndex={-1}
        accept=".json,.jsonl,.zip,application/json,application/x-ndjson,application/zip"
        multiple
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = ""; // the same file chosen again must fire change again
          if (files.length > 0) void importFile(files);
        }}
      />
    </>
  );
}
