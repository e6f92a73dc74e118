import { extractTail, stripTail } from "../../core/compaction/verbatim-tail";
import type { GraphModel } from "../../core/graph/model";
import type { GraphNode } from "../../core/graph/node";
import { KIND_NAME } from "../../core/graph/text";
import type { CompactionEntry, CompactionReason } from "../../core/session/entries";
import { messageText } from "../../core/session/entries";
import { entryText, firstWords } from "../../core/session/entry-text";
import type { EntryId } from "../../core/session/ids";
import type { TreeIndex } from "../../core/session/tree";
import { formatTime } from "../../core/time";
import { compactedByLabel } from "../chat/compaction-method-text";
import { count, KIND_GLYPH } from "./names";

const REASON: Readonly<Record<CompactionReason, string>> = {
  manual: "Manual",
  threshold: "Automatic — the context reached the threshold",
  overflow: "Automatic — the provider said the request was too long",
  length: "Automatic — a reply hit the output limit",
  preflight: "Automatic — the next request would not have fit",
  idle: "Automatic — the chat was idle with a large context",
};

/** Characters of a message shown in the panel. */
const PREVIEW_CHARS = 420;

const when = (ms: number) => formatTime(ms, "dateTime");

/**
 * The panel under the graph for the selected node (or the compaction under the pointer): what it
 * is, its words, and the way to act on it. A compaction shows its reason, model, instructions,
 * tokens before → after, the user turns it kept word for word and its verbatim tail.
 */
export function NodeDetails({
  model,
  node,
  index,
  preview,
  onClose,
  onSwitch,
  onShowInChat,
  onOpenSession,
  onGoTo,
  onMenu,
  menuOpen,
}: {
  model: GraphModel;
  node: GraphNode;
  index: TreeIndex;
  /** Shown because the pointer is over it (not selected): no actions. */
  preview: boolean;
  onClose: () => void;
  onSwitch: () => void;
  onShowInChat: () => void;
  onOpenSession: () => void;
  /** Select the node of an entry (a branch summary's summarized branch). */
  onGoTo: (entryId: EntryId) => void;
  onMenu: (button: HTMLButtonElement) => void;
  menuOpen: boolean;
}) {
  const entry = node.entry;
  const offPath = entry !== null && !node.onActivePath;
  return (
    <aside
      className={`graph-details k-${node.kind}${preview ? " preview" : ""}`}
      aria-label={node.kind === "compaction" ? "Compaction details" : "Node details"}
      data-no-pan=""
    >
      <header className="graph-details-head">
        <span className="gnode-badge" aria-hidden="true">
          {KIND_GLYPH[node.kind]}
        </span>
        <h3>{KIND_NAME[node.kind]}</h3>
        {node.label && <span className="gnode-label">{node.label}</span>}
        {node.isLeaf && <span className="badge">current</span>}
        {!node.isLeaf && node.onActivePath && <span className="badge">on this branch</span>}
        {offPath && <span className="badge">another branch</span>}
        {!preview && (
          <button type="button" className="icon-button push-left" aria-label="Close details" onClick={onClose}>
            ×
          </button>
        )}
      </header>
      <div className="graph-details-body">
        <Body node={node} index={index} model={model} onGoTo={onGoTo} preview={preview} />
      </div>
      {!preview && (
        <footer className="graph-details-actions">
          {offPath && (
            <button type="button" className="primary" onClick={onSwitch}>
              Switch here
            </button>
          )}
          {entry && node.onActivePath && (
            <button type="button" onClick={onShowInChat}>
              Show in chat
            </button>
          )}
          {node.handoff && (
            <button type="button" className={entry ? "" : "primary"} onClick={onOpenSession}>
              Open {node.handoff.title ? `“${firstWords(node.handoff.title, 6, 40)}”` : "the linked chat"}
            </button>
          )}
          <button
            type="button"
            className="push-left"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            onClick={(e) => onMenu(e.currentTarget)}
          >
            Node actions
          </button>
        </footer>
      )}
    </aside>
  );
}

function Body({
  node,
  index,
  model,
  onGoTo,
  preview,
}: {
  node: GraphNode;
  index: TreeIndex;
  model: GraphModel;
  onGoTo: (entryId: EntryId) => void;
  preview: boolean;
}) {
  const entry = node.entry;
  if (!entry) {
    return (
      <p className="graph-details-text">
        This chat was handed off to <strong>{node.handoff?.title ?? "another chat"}</strong>, which starts from a
        handoff document written here.
      </p>
    );
  }
  switch (entry.type) {
    case "message": {
      const text = entryText(entry);
      return (
        <>
          <p className="graph-details-meta muted">
            {entry.model ? `${entry.model} · ` : ""}
            {when(entry.createdAt)}
            {entry.status !== "complete" ? ` · ${entry.status}` : ""}
          </p>
          <p className="graph-details-text">
            {text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text || "(no text)"}
          </p>
        </>
      );
    }
    case "compaction":
      return <CompactionBody entry={entry} node={node} index={index} compactView={preview} />;
    case "branch_summary": {
      const target = model.nodeOfEntry.get(entry.fromId);
      return (
        <>
          <p className="graph-details-meta muted">
            by {entry.model} · {when(entry.createdAt)}
          </p>
          {entry.instructions && (
            <p className="graph-details-meta">
              <span className="muted">Instructions:</span> {entry.instructions}
            </p>
          )}
          <p className="graph-details-text">{clip(entry.summary)}</p>
          {target !== undefined && !preview && (
            <button type="button" className="link-button" onClick={() => onGoTo(entry.fromId)}>
              Go to the branch it summarizes
            </button>
          )}
        </>
      );
    }
    case "handoff":
      return (
        <>
          <p className="graph-details-meta muted">
            Continues {node.handoff?.title ? `“${node.handoff.title}”` : "an earlier chat"} · {when(entry.createdAt)}
          </p>
          <p className="graph-details-text">{clip(entry.document)}</p>
        </>
      );
  }
}

const clip = (text: string) => (text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text);

function CompactionBody({
  entry,
  node,
  index,
  compactView,
}: {
  entry: CompactionEntry;
  node: GraphNode;
  index: TreeIndex;
  compactView: boolean;
}) {
  const tail = extractTail(entry.summary);
  const digest = stripTail(entry.summary);
  const kept = entry.keptUserTurnIds.map((id) => {
    const e = index.byId.get(id);
    return { id, text: e?.type === "message" ? messageText(e.content) : null };
  });
  // Floor, not round: a 99.5% saving said as "100% smaller" would claim the summary is free.
  const saved = entry.tokensBefore > 0 ? Math.floor((1 - entry.tokensAfter / entry.tokensBefore) * 100) : 0;
  return (
    <>
      <p className="graph-details-tokens">
        <strong>
          {count(entry.tokensBefore)} → {count(entry.tokensAfter)} tokens
        </strong>
        {saved > 0 && <span className="muted"> ({saved}% smaller)</span>}
      </p>
      <dl className="graph-details-facts">
        <dt>Reason</dt>
        <dd>{REASON[entry.reason]}</dd>
        <dt>Model</dt>
        <dd>{entry.model}</dd>
        <dt>Method</dt>
        <dd>
          {compactedByLabel(entry)}
          {entry.nativeFallback !== undefined && <span className="muted"> (the provider's own compaction failed)</span>}
        </dd>
        {entry.instructions && (
          <>
            <dt>Instructions</dt>
            <dd>{entry.instructions}</dd>
          </>
        )}
        <dt>Folded</dt>
        <dd>
          {count(node.compaction?.folded.length ?? 0)} {node.compaction?.folded.length === 1 ? "entry" : "entries"}{" "}
          <span className="muted">(shaded in the graph)</span>
        </dd>
      </dl>
      {entry.shortSummary && <p className="graph-details-text">{entry.shortSummary}</p>}
      {!compactView && (
        <>
          <section className="graph-details-section" aria-label="Kept user turns">
            <h4>Your messages kept word for word ({kept.length})</h4>
            {kept.length === 0 ? (
              <p className="muted small">None.</p>
            ) : (
              <ol className="graph-kept">
                {kept.map((k) => (
                  <li key={k.id}>
                    {k.text === null ? <span className="muted">(not in this chat)</span> : clip(k.text)}
                  </li>
                ))}
              </ol>
            )}
          </section>
          {tail && (
            <section className="graph-details-section" aria-label="Verbatim tail">
              <h4>Last reply before the cut, word for word</h4>
              <blockquote className="graph-tail">{clip(tail)}</blockquote>
            </section>
          )}
          <details className="graph-details-section">
            <summary>Full summary</summary>
            <p className="graph-details-text pre">{digest}</p>
          </details>
        </>
      )}
    </>
  );
}
