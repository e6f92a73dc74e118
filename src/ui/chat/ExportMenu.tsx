import { useState } from "react";
import type { SessionId } from "../../core/session/ids";
import type { ExportFormat } from "../../db/transfer/export-job";
import { exportSession } from "../../state/transfer/export";
import { saveFile } from "../common/save-file";

const FORMATS: ReadonlyArray<{ format: ExportFormat; name: string; hint: string }> = [
  { format: "grove-json", name: "Grove JSON", hint: "Everything, every branch: import it back into Grove anywhere" },
  { format: "markdown", name: "Markdown", hint: "The conversation as a readable document" },
  { format: "html", name: "HTML", hint: "One page that opens offline in any browser, with its branches" },
  { format: "pi-jsonl", name: "pi JSONL", hint: "A pi session file, for terminal coding agents" },
];

/**
 * The export items of the chat menu (ChatHeader): the open chat in one of four formats, saved as a
 * download, as a group named "Export" inside a role=menu.
 */
export function ExportMenuItems({ sessionId, close }: { sessionId: SessionId; close: () => void }) {
  const [allBranches, setAllBranches] = useState(false);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of menu items inside role=menu (WAI-ARIA menu pattern), not a form fieldset
    <div role="group" aria-label="Export" className="menu-group">
      <div className="menu-heading" aria-hidden="true">
        Export as
      </div>
      {FORMATS.map(({ format, name, hint }) => (
        <button
          key={name}
          type="button"
          role="menuitem"
          title={hint}
          onClick={() => {
            close();
            void exportSession(sessionId, format, { allBranches }).then((file) => file && saveFile(file));
          }}
        >
          {name}
        </button>
      ))}
      <button
        type="button"
        role="menuitemcheckbox"
        aria-checked={allBranches}
        title="Markdown: add every other branch after the active one"
        onClick={() => setAllBranches((v) => !v)}
      >
        <span className={allBranches ? "menu-check on" : "menu-check"} aria-hidden="true" /> Include other branches
      </button>
    </div>
  );
}
