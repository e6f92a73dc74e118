import { useState } from "react";
import type { SessionId } from "../../core/session/ids";
import { type ExportFormat, exportSession } from "../../state/actions/export";
import { MenuButton } from "../common/Menu";
import { saveFile } from "../common/save-file";

const FORMATS: ReadonlyArray<{ format: ExportFormat; name: string; hint: string }> = [
  { format: "grove-json", name: "Grove JSON", hint: "Everything, every branch: import it back into Grove anywhere" },
  { format: "markdown", name: "Markdown", hint: "The conversation as a readable document" },
  { format: "html", name: "HTML", hint: "One page that opens offline in any browser, with its branches" },
  { format: "pi-jsonl", name: "pi JSONL", hint: "A pi session file, for terminal coding agents" },
];

/** "Export" in the chat header: the open chat in one of four formats, saved as a download. */
export function ExportMenu({ sessionId }: { sessionId: SessionId }) {
  const [allBranches, setAllBranches] = useState(false);
  return (
    <MenuButton label="Export" className="chip" title="Save this chat as a file">
      {(close) => (
        <>
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
          <hr />
          <button
            type="button"
            role="menuitemcheckbox"
            aria-checked={allBranches}
            title="Markdown: add every other branch after the active one"
            onClick={() => setAllBranches((v) => !v)}
          >
            <span className={allBranches ? "menu-check on" : "menu-check"} aria-hidden="true" /> Include other branches
          </button>
        </>
      )}
    </MenuButton>
  );
}
