import { lazy, memo, useState } from "react";
import { stripFileOpsTags } from "../../core/compaction/file-ops";
import { extractTail, stripTail } from "../../core/compaction/verbatim-tail";
import type { CompactionEntry, MessageEntry } from "../../core/session/entries";
import { messageText } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import type { PinnedPassage } from "../../core/session/pins";
import { formatTime, isoTime } from "../../core/time";
import { setPinned } from "../../state/sessions/pins";
import { LazyPart } from "../common/LazyPart";
import { Markdown } from "../markdown/LazyMarkdown";
import { compactedByLabel, nativeFallbackNote, nativeSummaryText } from "./compaction-method-text";
import { FileOpsList } from "./FileOpsList";
import { REASON_LABEL } from "./maintenance-text";
import { PromptVersionNote } from "./PromptVersionNote";
import { scrollToEntry } from "./scroll-to-entry";
import { UndoCompactionButton } from "./UndoCompactionButton";

const MemoryCheckPanel = lazy(() => import("./MemoryCheckPanel").then((m) => ({ default: m.MemoryCheckPanel })));

/** Summaries longer than this (characters) start collapsed. */
const COLLAPSE_OVER_CHARS = 700;

/** The parts of `details` the card explains; anything else (pi's file lists…) is kept, not shown. */
type CardNotes = {
  evicted: number;
  folded: { count: number; tokens: number };
  foldedEntries: number | null;
  splitTurn: boolean;
  files: { read: number; modified: number } | null;
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const arrayLength = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** Reads the engine's `CompactionDetails` (or an imported pi entry's details) defensively: it is opaque data. */
function cardNotes(details: unknown): CardNotes {
  const notes: CardNotes = {
    evicted: 0,
    folded: { count: 0, tokens: 0 },
    foldedEntries: null,
    splitTurn: false,
    files: null,
  };
  if (!isRecord(details)) return notes;
  notes.evicted = arrayLength(details.evictedUserTurnIds);
  if (Array.isArray(details.foldedUserTurns)) {
    for (const t of details.foldedUserTurns) {
      notes.folded.count += 1;
      if (isRecord(t) && typeof t.tokens === "number") notes.folded.tokens += t.tokens;
    }
  }
  if (typeof details.foldedEntries === "number") notes.foldedEntries = details.foldedEntries;
  notes.splitTurn = typeof details.splitTurnStartId === "string";
  if (Array.isArray(details.readFiles) || Array.isArray(details.modifiedFiles)) {
    notes.files = { read: arrayLength(details.readFiles), modified: arrayLength(details.modifiedFiles) };
  }
  return notes;
}

const NO_PINS: readonly MessageEntry[] = [];
const NO_PASSAGES: readonly PinnedPassage[] = [];

const short = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 90 ? `${flat.slice(0, 90)}…` : flat || "(no text)";
};

/**
 * The pinned messages and passages a compaction carries, each a link to its message; on the
 * latest compaction each can be removed ("Stop keeping word for word": the next request no longer
 * carries it).
 */
function PinnedList({
  sessionId,
  pinned,
  passages,
  removable,
}: {
  sessionId: SessionId;
  pinned: readonly MessageEntry[];
  passages: readonly PinnedPassage[];
  removable: boolean;
}) {
  const n = pinned.length + passages.length;
  return (
    <section className="compaction-pins" aria-label="Pinned messages">
      <h4>
        Kept word for word because you pinned {n === 1 ? "it" : "them"} ({n})
      </h4>
      <ul>
        {pinned.map((m) => (
          <li key={m.id}>
            <button type="button" className="link-button" onClick={() => scrollToEntry(m.id)}>
              {m.role === "user" ? "You" : m.role === "assistant" ? "Assistant" : "Tool"}:{" "}
              {short(messageText(m.content))}
            </button>
            {removable && (
              <button type="button" className="small" onClick={() => void setPinned(sessionId, m.id, false)}>
                Stop keeping word for word
              </button>
            )}
          </li>
        ))}
        {passages.map((p) => (
          <li key={`${p.entryId}:${p.start}:${p.end}`}>
            <button type="button" className="link-button" onClick={() => scrollToEntry(p.entryId)}>
              Passage: “{short(p.text)}”
            </button>
            {removable && (
              <button type="button" className="small" onClick={() => void setPinned(sessionId, p.entryId, false, p)}>
                Stop keeping word for word
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * A compaction, drawn at its cut: what the model now sees instead of the dimmed messages above.
 * Its accessible name starts "Compaction summary".
 */
export const CompactionCard = memo(function CompactionCard({
  entry,
  latest,
  newest = false,
  pinned = NO_PINS,
  passages = NO_PASSAGES,
}: {
  entry: CompactionEntry;
  /** Pinned messages it carries word for word above the summary (display-rows.ts). */
  pinned?: readonly MessageEntry[];
  /** Pinned passages it carries the same way. */
  passages?: readonly PinnedPassage[];
  /** false: a later compaction folded this one in (only the latest is sent). */
  latest: boolean;
  /** The chat's newest entry (its leaf, nothing after it): it may be undone. */
  newest?: boolean;
}) {
  const long = entry.summary.length > COLLAPSE_OVER_CHARS;
  const [expanded, setExpanded] = useState(false);
  const [checking, setChecking] = useState(false);
  const collapsed = (long || !latest) && !expanded;
  // The file tags are shown as a list below, not as text.
  const digest = stripFileOpsTags(stripTail(entry.summary));
  const tail = extractTail(entry.summary);
  const notes = cardNotes(entry.details);
  const fallback = nativeFallbackNote(entry);
  const nativeText = nativeSummaryText(entry);
  const saved = entry.tokensBefore > 0 ? Math.round((1 - entry.tokensAfter / entry.tokensBefore) * 100) : 0;

  return (
    <article
      className={`compaction-card ${latest ? "latest" : "superseded"}`}
      aria-label={`Compaction summary: ${entry.shortSummary}`}
    >
      <div className="compaction-rule" aria-hidden="true">
        <span>{latest ? "Earlier messages summarized" : "An earlier compaction"}</span>
      </div>
      <div className="compaction-body">
        <header className="compaction-head">
          <span className="compaction-icon" aria-hidden="true">
            ⇣
          </span>
          <span className="compaction-title">Compaction summary</span>
          <span className="badge">{REASON_LABEL[entry.reason]}</span>
          <span className={`badge compacted-by ${entry.compactedBy ?? "grove"}`}>{compactedByLabel(entry)}</span>
          {!latest && <span className="badge">superseded by a later compaction</span>}
          <span className="compaction-tokens" title={`${saved}% smaller`}>
            {entry.tokensBefore.toLocaleString()} → {entry.tokensAfter.toLocaleString()} tokens
          </span>
        </header>
        {entry.shortSummary && <p className="compaction-short">{entry.shortSummary}</p>}
        {fallback && (
          <p className="compaction-fallback" role="note">
            {fallback}
          </p>
        )}
        {nativeText && (
          <details className="compaction-native">
            <summary>Claude's own summary (sent to Claude)</summary>
            <Markdown text={nativeText} />
          </details>
        )}
        {entry.instructions && (
          <p className="compaction-instructions">
            <span className="muted">Instructions:</span> {entry.instructions}
          </p>
        )}
        <div className={`compaction-summary ${collapsed ? "collapsed" : ""}`}>
          <Markdown text={digest} />
          {tail && (
            <figure className="verbatim-tail">
              <figcaption>Last reply before the cut, word for word</figcaption>
              <Markdown text={tail} />
            </figure>
          )}
        </div>
        {(long || !latest) && (
          <button type="button" className="link-button" aria-expanded={expanded} onClick={() => setExpanded((x) => !x)}>
            {expanded ? "Show less" : "Show full summary"}
          </button>
        )}
        {(notes.evicted > 0 || notes.folded.count > 0 || notes.splitTurn) && (
          <ul className="compaction-notes">
            {notes.evicted > 0 && (
              <li>
                {plural(notes.evicted, "earlier message")} of yours no longer kept word for word (the kept-messages
                budget was full; oldest first). The summary covers {notes.evicted === 1 ? "it" : "them"}.
              </li>
            )}
            {notes.folded.count > 0 && (
              <li>
                {plural(notes.folded.count, "long message")} of yours (about {notes.folded.tokens.toLocaleString()}{" "}
                tokens) summarized instead of kept word for word.
              </li>
            )}
            {notes.splitTurn && <li>The cut fell inside a turn: its beginning is summarized separately.</li>}
          </ul>
        )}
        {pinned.length + passages.length > 0 && (
          <PinnedList sessionId={entry.sessionId} pinned={pinned} passages={passages} removable={latest} />
        )}
        <FileOpsList details={entry.details} />
        <div className="compaction-actions">
          {newest && <UndoCompactionButton entry={entry} />}
          {!checking && (
            <button
              type="button"
              title="Ask the model questions about what this compaction folded (shows the cost first)"
              onClick={() => setChecking(true)}
            >
              Check memory
            </button>
          )}
        </div>
        {checking && (
          <LazyPart>
            <MemoryCheckPanel entry={entry} onClose={() => setChecking(false)} />
          </LazyPart>
        )}
        <footer className="compaction-foot muted">
          <span>by {entry.model}</span>
          <PromptVersionNote details={entry.details} />
          {notes.foldedEntries !== null && <span>{plural(notes.foldedEntries, "message")} summarized</span>}
          {entry.keptUserTurnIds.length > 0 && (
            <span>{plural(entry.keptUserTurnIds.length, "message")} of yours kept word for word</span>
          )}
          <time dateTime={isoTime(entry.createdAt)}>{formatTime(entry.createdAt, "dateTime")}</time>
        </footer>
      </div>
    </article>
  );
});
