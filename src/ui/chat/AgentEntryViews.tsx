import { memo, useState } from "react";
import { commandContextText, isCommandSent, settingChangeText } from "../../core/session/agent-entries";
import type {
  CommandEntry,
  ContextNoteEntry,
  ModelChangeEntry,
  ThinkingLevelChangeEntry,
} from "../../core/session/entries";
import { contextNoteText } from "../../core/session/entry-text";
import { Markdown } from "../markdown/LazyMarkdown";
import { snippet } from "./MessageItem";
import "./agent-entries.css";

/** A model or thinking-level change from a pi session: a small marker, never sent to the model. */
export const SettingMarker = memo(function SettingMarker({
  entry,
}: {
  entry: ModelChangeEntry | ThinkingLevelChangeEntry;
}) {
  const text = settingChangeText(entry);
  return (
    <p className="setting-marker" role="note" aria-label={text} title="Session setting · not sent to the model">
      <span aria-hidden="true">⚙</span> {text}
    </p>
  );
});

/** A note an extension put into the context; shown only when its `display` says so. */
export const ContextNoteView = memo(function ContextNoteView({
  entry,
  folded,
}: {
  entry: ContextNoteEntry;
  folded: boolean;
}) {
  if (!entry.display) return null;
  return (
    <article
      className={`card context-note${folded ? " vis-folded" : ""}`}
      aria-label={`Note (${entry.customType}): ${snippet(contextNoteText(entry), 60)}`}
    >
      <header className="context-note-head muted small">Note · {entry.customType}</header>
      <Markdown text={contextNoteText(entry)} />
    </article>
  );
});

/** A shell command the user ran (pi's `!cmd`): the command line, collapsed output and exit code. */
export const CommandBlock = memo(function CommandBlock({ entry, folded }: { entry: CommandEntry; folded: boolean }) {
  const [open, setOpen] = useState(false);
  const code =
    entry.cancelled === true
      ? "cancelled"
      : entry.exitCode === null || entry.exitCode === undefined
        ? null
        : `exit ${entry.exitCode}`;
  return (
    <article
      className={`card command-block${folded ? " vis-folded" : ""}${entry.exitCode ? " failed" : ""}`}
      aria-label={`Command: ${snippet(entry.command, 60)}`}
    >
      <button type="button" className="command-head" aria-expanded={open} onClick={() => setOpen((x) => !x)}>
        <code className="command-line">$ {entry.command}</code>
        {code && <span className="command-code small">{code}</span>}
        {!isCommandSent(entry) && <span className="muted small">not sent to the model</span>}
      </button>
      {open && <pre className="command-output">{entry.output || "(no output)"}</pre>}
      {open && entry.truncated && <p className="muted small">{commandContextText(entry).split("\n\n").pop()}</p>}
    </article>
  );
});
