import { useRef } from "react";
import { importableFormatsInFull } from "../../core/export/importable-formats";
import { importFile } from "../../state/app/lazy";

/**
 * What the file picker offers. .md too: a Markdown file (Grove's own Markdown export) is refused
 * with a message naming what Grove imports, rather than being greyed out in the picker with no
 * reason given.
 */
export const IMPORT_ACCEPT =
  ".json,.jsonl,.zip,.md,.markdown,application/json,application/x-ndjson,application/zip,text/markdown";

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
        title={`Import ${importableFormatsInFull()} (or drop the files on the window)`}
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
        accept={IMPORT_ACCEPT}
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
