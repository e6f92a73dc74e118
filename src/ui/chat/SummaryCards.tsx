import { memo, useState } from "react";
import { stripFileOpsTags } from "../../core/compaction/file-ops";
import type { BranchSummaryEntry, HandoffEntry } from "../../core/session/entries";
import { branchSummaryBody, entryTitle } from "../../core/session/entry-text";
import { returnToBranch } from "../../state/app/lazy";
import type { SessionView } from "../hooks";
import { Markdown } from "../markdown/LazyMarkdown";
import { FileOpsList } from "./FileOpsList";
import { snippet } from "./MessageItem";

/** Summaries longer than this (characters) start collapsed. */
const COLLAPSE_OVER_CHARS = 900;

/**
 * A branch summary (DESIGN §5): what happened on the branch the user left, where it came from, and
 * a way back to it (the leaf moves to the summary's `fromId`). Its accessible name starts
 * "Branch summary".
 */
export const BranchSummaryCard = memo(function BranchSummaryCard({
  entry,
  view,
  folded,
}: {
  entry: BranchSummaryEntry;
  view: SessionView;
  folded: boolean;
}) {
  const body = branchSummaryBody(stripFileOpsTags(entry.summary));
  const long = body.length > COLLAPSE_OVER_CHARS;
  const [expanded, setExpanded] = useState(false);
  const from = view.index.byId.get(entry.fromId);
  const fromText = from ? entryTitle(from) : null;
  const atFrom = view.session?.leafId === entry.fromId;
  return (
    <article
      className={`card summary-card branch-summary${folded ? " vis-folded" : ""}`}
      aria-label={`Branch summary: ${snippet(body, 60)}`}
    >
      <header className="summary-card-head">
        <span className="summary-card-icon" aria-hidden="true">
          ⤺
        </span>
        <span className="summary-card-title">Branch summary</span>
        <span className="muted small">the branch you left, for the model</span>
      </header>
      {entry.instructions && (
        <p className="compaction-instructions">
          <span className="muted">Instructions:</span> {entry.instructions}
        </p>
      )}
      <div className={`summary-card-body ${long && !expanded ? "collapsed" : ""}`}>
        <Markdown text={body} />
      </div>
      <FileOpsList details={entry.details} />
      {long && (
        <button type="button" className="link-button" aria-expanded={expanded} onClick={() => setExpanded((x) => !x)}>
          {expanded ? "Show less" : "Show full summary"}
        </button>
      )}
      <footer className="summary-card-foot">
        <span className="muted small">
          {fromText !== null ? (
            <>
              From the branch that ended at <q>{fromText}</q>
            </>
          ) : view.complete ? (
            "The branch it came from is no longer in this chat."
          ) : (
            "From another branch."
          )}{" "}
          · by {entry.model}
        </span>
        {from && !atFrom && (
          <button
            type="button"
            className="link-button push-left"
            title="Continue from where that branch ended"
            onClick={() => void returnToBranch(entry.sessionId, entry.fromId)}
          >
            Back to that branch
          </button>
        )}
      </footer>
    </article>
  );
});

/**
 * A handoff document: the first entry of a session continued from another. Its accessible name
 * starts "Handoff document". The link back to the old session is in the chat's session links.
 */
export const HandoffCard = memo(function HandoffCard({ entry, folded }: { entry: HandoffEntry; folded: boolean }) {
  const long = entry.document.length > COLLAPSE_OVER_CHARS;
  const [expanded, setExpanded] = useState(false);
  return (
    <article
      className={`card summary-card handoff${folded ? " vis-folded" : ""}`}
      aria-label={`Handoff document: ${snippet(entry.document, 60)}`}
    >
      <header className="summary-card-head">
        <span className="summary-card-icon" aria-hidden="true">
          ⇢
        </span>
        <span className="summary-card-title">Handoff document</span>
        <span className="muted small">written at the end of the previous session; this session starts from it</span>
      </header>
      <div className={`summary-card-body ${long && !expanded ? "collapsed" : ""}`}>
        <Markdown text={entry.document} />
      </div>
      {long && (
        <button type="button" className="link-button" aria-expanded={expanded} onClick={() => setExpanded((x) => !x)}>
          {expanded ? "Show less" : "Show full document"}
        </button>
      )}
    </article>
  );
});
