import { useId, useState } from "react";
import type { GraphNode } from "../../core/graph/node";
import { KIND_NAME } from "../../core/graph/text";
import { KIND_GLYPH } from "./names";

type Kind = GraphNode["kind"];

/** The kinds the graph draws, in the order a chat meets them, each with what it means. */
const KINDS: readonly { kind: Kind; what: string }[] = [
  { kind: "user", what: "what you wrote (blue)" },
  { kind: "assistant", what: "a reply (green)" },
  { kind: "tool", what: "a tool step's result (grey)" },
  { kind: "compaction", what: "earlier turns summarized; drawn where the chat shows its card (amber, dashed)" },
  { kind: "branch_summary", what: "a summary of a branch left behind (purple)" },
  { kind: "handoff", what: "a link to the chat this one continues or was handed off to (teal)" },
  { kind: "run", what: "a long stretch of messages with no fork; open it to see them" },
  { kind: "note", what: "a context note from an imported session" },
  { kind: "command", what: "a shell command from an imported session" },
  { kind: "setting", what: "a model or thinking change (dashed)" },
  { kind: "extension_data", what: "extension data from an imported session (dashed)" },
];

/**
 * "Legend" (issue 27 item 4): a button in the zoom bar that shows, as a list, every kind of node
 * the graph draws with its colour and glyph, then the marks drawn on them.
 */
export function GraphLegend() {
  const [open, setOpen] = useState(false);
  const listId = useId();
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        title="What the colours and shapes mean"
        onClick={() => setOpen((o) => !o)}
      >
        Legend
      </button>
      {open && (
        <ul
          id={listId}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls on a short screen, so it takes focus (axe's scrollable-region-focusable)
          tabIndex={0}
          className="graph-legend"
          aria-label="Legend"
          data-no-pan=""
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              setOpen(false);
            }
          }}
        >
          {KINDS.map(({ kind, what }) => (
            <li key={kind} className={`k-${kind}`}>
              <span className="graph-legend-swatch" aria-hidden="true" data-glyph={KIND_GLYPH[kind]} />
              <span>
                <strong>{KIND_NAME[kind]}</strong>: {what}
              </span>
            </li>
          ))}
          <li className="graph-legend-mark">
            <span className="graph-legend-swatch here" aria-hidden="true" />
            <span>
              <strong>You are here</strong>: the last message of the branch you are on
            </span>
          </li>
          <li className="graph-legend-mark">
            <span className="graph-legend-swatch path" aria-hidden="true" />
            <span>
              <strong>Thick line</strong>: the branch you are on; thin lines, other branches
            </span>
          </li>
          <li className="graph-legend-mark">
            <span className="graph-legend-swatch band" aria-hidden="true" />
            <span>
              <strong>Shaded</strong>: messages a compaction folded into its summary
            </span>
          </li>
          <li className="k-group">
            <span className="graph-legend-swatch" aria-hidden="true" data-glyph="≡" />
            <span>
              <strong>Group</strong> (Fit on a large chat): the messages of a stretch, with their forks and summaries
            </span>
          </li>
        </ul>
      )}
    </>
  );
}
