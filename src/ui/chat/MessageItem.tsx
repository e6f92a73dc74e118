import { memo, useState } from "react";
import type { MessageEntry } from "../../core/session/entries";
import { messageText } from "../../core/session/entries";
import { siblingsOf } from "../../core/session/tree";
import { branchFromHere, editMessage, regenerate, showVersion } from "../../state/actions/chat";
import { describeFailure } from "../../state/actions/describe-failure";
import { useStreamStore, useUiStore } from "../../state/stores";
import type { SessionView } from "../hooks";
import { Markdown } from "../markdown/Markdown";
import { CopyButton } from "./CopyButton";
import { ThinkingView } from "./ThinkingView";

const ROLE_NAME = { user: "User message", assistant: "Assistant message", tool: "Tool result" } as const;
const STATUS_NOTE = {
  stopped: "Stopped — the reply was cut short.",
  interrupted: "Interrupted — the page closed while this reply was streaming.",
} as const;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

export const MessageItem = memo(function MessageItem({ entry, view }: { entry: MessageEntry; view: SessionView }) {
  const editing = useUiStore((s) => s.editingId === entry.id);
  const text = messageText(entry.content);
  const { siblings, position } = siblingsOf(view.index, entry.id);
  const sessionId = entry.sessionId;
  // While a reply streams, actions that start another reply wait: runReply runs one reply per
  // session, so an edit saved now would be a user message that never gets its reply. Moving around
  // the tree (versions, Branch from here) stays allowed: the streaming reply still lands as a version.
  const busy = useStreamStore((s) => sessionId in s.replies);
  const busyTitle = busy ? "Wait for the reply to finish, or press Stop" : undefined;

  return (
    <article
      className={`message ${entry.role} status-${entry.status}`}
      aria-label={`${ROLE_NAME[entry.role]}: ${snippet(text)}`}
    >
      <div className="message-meta">
        <span className="role">
          {entry.role === "user" ? "You" : entry.role === "assistant" ? "Assistant" : "Tool"}
        </span>
        {entry.model && <span className="muted">{entry.model}</span>}
        {entry.status === "stopped" && <span className="badge">stopped</span>}
        {entry.status === "interrupted" && <span className="badge warn">interrupted</span>}
        {siblings.length > 1 && (
          <span className="versions">
            <button
              type="button"
              className="icon-button"
              aria-label="Previous version"
              disabled={position <= 1}
              onClick={() => void showVersion(sessionId, entry.id, -1)}
            >
              ‹
            </button>
            <span>
              {position} / {siblings.length}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label="Next version"
              disabled={position >= siblings.length}
              onClick={() => void showVersion(sessionId, entry.id, 1)}
            >
              ›
            </button>
          </span>
        )}
      </div>

      {editing ? (
        <EditBox
          initial={text}
          busy={busy}
          onCancel={() => useUiStore.setState({ editingId: null })}
          onSave={(t) => void editMessage(sessionId, entry.id, t)}
        />
      ) : (
        <div className="message-body">
          {entry.content.map((block, i) => {
            const key = `${block.type}-${i.toString()}`;
            switch (block.type) {
              case "thinking":
                return <ThinkingView key={key} block={block} />;
              case "text":
                return entry.role === "user" ? (
                  <div key={key} className="user-text">
                    {block.text}
                  </div>
                ) : (
                  <Markdown key={key} text={block.text} />
                );
              case "tool_call":
                return (
                  <details key={key} className="tool">
                    <summary>Tool call: {block.name}</summary>
                    <pre>{JSON.stringify(block.args, null, 2)}</pre>
                  </details>
                );
              case "tool_result":
                return (
                  <details key={key} className={`tool ${block.isError ? "tool-error" : ""}`}>
                    <summary>
                      Tool result{block.toolName ? `: ${block.toolName}` : ""}
                      {block.isError ? " (error)" : ""}
                    </summary>
                    <pre>{block.text}</pre>
                  </details>
                );
              case "image":
                return (
                  <div key={key} className="muted">
                    [image]
                  </div>
                );
              default:
                return null;
            }
          })}
        </div>
      )}

      {(entry.status === "stopped" || entry.status === "interrupted") && (
        <p className="status-note">{STATUS_NOTE[entry.status]}</p>
      )}
      {entry.status === "error" && entry.error && (
        <div className="error-box" role="alert">
          <span>{describeFailure(entry.error)}</span>
          {entry.role === "assistant" && (
            <button
              type="button"
              className="primary"
              disabled={busy}
              title={busyTitle}
              onClick={() => void regenerate(sessionId, entry.id)}
            >
              Retry
            </button>
          )}
        </div>
      )}

      {!editing && (
        <div className="message-actions">
          <CopyButton text={text} />
          {entry.role === "user" && (
            <button
              type="button"
              disabled={busy}
              title={busyTitle}
              onClick={() => useUiStore.setState({ editingId: entry.id })}
            >
              Edit
            </button>
          )}
          {entry.role === "assistant" && (
            <>
              <button
                type="button"
                disabled={busy}
                title={busyTitle}
                onClick={() => void regenerate(sessionId, entry.id)}
              >
                Regenerate
              </button>
              <button type="button" onClick={() => void branchFromHere(sessionId, entry)}>
                Branch from here
              </button>
            </>
          )}
          {entry.role === "assistant" && (entry.usage || entry.stopReason) && (
            <span className="usage muted" title="Provider-reported usage">
              {entry.usage && `${entry.usage.input.toLocaleString()} in · ${entry.usage.output.toLocaleString()} out`}
              {entry.stopReason && entry.stopReason !== "end" && ` · stop: ${entry.stopReason}`}
            </span>
          )}
        </div>
      )}
    </article>
  );
});

function EditBox({
  initial,
  busy,
  onSave,
  onCancel,
}: {
  initial: string;
  busy: boolean;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  const save = () => {
    if (!busy && text.trim()) onSave(text);
  };
  return (
    <form
      className="edit-box"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <textarea
        aria-label="Edit message"
        autoFocus
        rows={Math.min(12, Math.max(3, text.split("\n").length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onCancel();
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            save();
          }
        }}
      />
      <div className="row-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={busy || !text.trim()}
          title={busy ? "Wait for the reply to finish, or press Stop" : undefined}
        >
          Save and send
        </button>
      </div>
    </form>
  );
}
