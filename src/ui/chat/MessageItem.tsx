import { memo, useState } from "react";
import type { Block, MessageEntry, ServerToolBlock } from "../../core/session/entries";
import { messageText } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";
import type { PinnedPassage } from "../../core/session/pins";
import { hasContent, joinContinuation } from "../../core/session/plan-context";
import { versionsOf } from "../../core/session/versions";
import { describeFailure } from "../../state/app/describe-failure";
import { showVersion } from "../../state/app/lazy";
import { useUiStore } from "../../state/app/ui-store";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { useStreamStore } from "../../state/reply/stream-store";
import { takeReturnedEdit, usePendingSendStore } from "../../state/send/pending-send";
// Not the lazy stand-ins: these show their result in the frame after the click (the chat module is in the entry chunk).
import { continueReply, editMessage, regenerate } from "../../state/send/send";
import type { SessionView } from "../hooks";
import { Markdown } from "../markdown/LazyMarkdown";
import type { ShownResult, Visibility } from "./display-rows";
import { PinnedPassages } from "./lazy-pins";
import { Citations, ServerToolStep, ToolCallStep } from "./lazy-tools";
import { MessageActions } from "./MessageActions";
import { MessageFileChip, MessageImage } from "./MessageAttachments";
import { PrunedMark } from "./PrunedMark";
import { ThinkingView } from "./ThinkingView";
import { anchorVersion } from "./version-anchor";

const ROLE_NAME = { user: "User message", assistant: "Assistant message", tool: "Tool result" } as const;
const STATUS_NOTE = {
  stopped: "Stopped — the reply was cut short.",
  interrupted: "Interrupted — the page closed while this reply was streaming.",
} as const;

export function snippet(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A reply and the continuations joined to it, as one content list (the join: core/session/plan-context). */
function joinedContent(entry: MessageEntry, continuations: readonly MessageEntry[]): Block[] {
  return continuations.reduce<Block[]>((out, c) => joinContinuation(out, c.content), [...entry.content]);
}

const NO_CONTINUATIONS: readonly MessageEntry[] = [];

export const MessageItem = memo(function MessageItem({
  entry,
  view,
  continuations = NO_CONTINUATIONS,
  visibility = "sent",
  pinned = false,
  passages,
  continuable = false,
  pruned,
  results,
}: {
  entry: MessageEntry;
  view: SessionView;
  /** "Continue" replies joined to this one (display-rows.ts). */
  continuations?: readonly MessageEntry[];
  /** What the model gets of this message under the latest compaction. */
  visibility?: Visibility;
  /** Pinned ("Keep word for word"): carried verbatim into every later compaction of this path. */
  pinned?: boolean;
  /** Passages of it pinned on this path ("Keep word for word" on a selection). */
  passages?: readonly PinnedPassage[];
  /** Cut off by the output limit at the end of the path: offer Continue. */
  continuable?: boolean;
  /** Tool results the context builder sends truncated: block index → tokens. */
  pruned?: ReadonlyMap<number, number>;
  /** The answers to this reply's tool calls (display-rows.ts), shown inside each call's step. */
  results?: ReadonlyMap<string, ShownResult>;
}) {
  const editing = useUiStore((s) => s.editingId === entry.id);
  // An edit that could not be stored comes back to its editor.
  const returnedEdit = usePendingSendStore((s) => s.returnedEdits[entry.id]);
  const last = continuations[continuations.length - 1] ?? entry;
  const content = continuations.length > 0 ? joinedContent(entry, continuations) : entry.content;
  const text = messageText(content);
  const { siblings, position } = versionsOf(view.index, entry.id);
  const sessionId = entry.sessionId;
  // While a reply streams, actions that start another reply wait: runReply runs one reply per
  // session, so an edit saved now would be a user message that never gets its reply. Moving around
  // the tree (versions, Branch from here) stays allowed: the streaming reply still lands as a version.
  const replying = useStreamStore((s) => sessionId in s.replies);
  // Maintenance (compaction) holds one lock for all chats; while it runs here, nothing starts a reply.
  const maintenance = useMaintenanceStore((s) => (s.op ? (s.op.sessionId === sessionId ? "here" : "elsewhere") : null));
  const busy = replying || maintenance === "here";
  const busyTitle = replying
    ? "Wait for the reply to finish, or press Stop"
    : maintenance === "here"
      ? "Wait for the compaction to finish"
      : undefined;
  const compactBusy = replying || maintenance !== null;
  const compactTitle = replying ? "Wait for the reply to finish" : "Wait for the running compaction to finish";
  const status = last.status;
  // Rewind (DESIGN §5) anywhere but at an assistant leaf; the lock on this chat blocks it meanwhile.
  const atLeaf = view.session?.leafId === last.id;
  const flip = (from: Element, step: -1 | 1) => {
    const next = siblings[position - 1 + step];
    if (next) anchorVersion(next.id, from);
    void showVersion(sessionId, entry.id, step);
  };

  return (
    <article
      className={`message ${entry.role} status-${status} ${visibility === "sent" ? "" : `vis-${visibility}`}`}
      aria-label={`${ROLE_NAME[entry.role]}: ${snippet(text)}`}
      data-entry-id={entry.id}
    >
      <div className="message-meta">
        <span className="role">
          {entry.role === "user" ? "You" : entry.role === "assistant" ? "Assistant" : "Tool"}
        </span>
        {entry.model && <span className="muted">{entry.model}</span>}
        {visibility === "folded" && (
          <span
            className="badge folded"
            title="Summarized in the compaction below: the model now gets the summary, not this message word for word"
          >
            summarized
          </span>
        )}
        {pinned && (
          <span
            className="badge kept pinned"
            title="Pinned: carried word for word into every later compaction of this path, above the summary"
          >
            kept word for word
          </span>
        )}
        {visibility === "kept" && !pinned && (
          <span className="badge kept" title="Still sent word for word, next to the compaction summary">
            kept in full
          </span>
        )}
        {continuations.length > 0 && (
          <span className="badge" title="Cut off by the output limit and continued">
            continued
          </span>
        )}
        {status === "stopped" && <span className="badge">stopped</span>}
        {status === "interrupted" && <span className="badge warn">interrupted</span>}
        {siblings.length > 1 && (
          <span className="versions">
            <button
              type="button"
              className="icon-button"
              aria-label="Previous version"
              disabled={position <= 1}
              onClick={(e) => flip(e.currentTarget, -1)}
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
              onClick={(e) => flip(e.currentTarget, 1)}
            >
              ›
            </button>
          </span>
        )}
      </div>

      {editing ? (
        <EditBox
          initial={returnedEdit ?? text}
          busy={busy}
          onCancel={() => {
            takeReturnedEdit(entry.id);
            useUiStore.setState({ editingId: null });
          }}
          onSave={(t) => void editMessage(sessionId, entry.id, t, entry)}
        />
      ) : (
        <div className="message-body">
          {content.map((block, i) => {
            const key = `${block.type}-${i.toString()}`;
            switch (block.type) {
              case "thinking":
              case "reasoning":
                return <ThinkingView key={key} block={block} />;
              case "text":
                return entry.role === "user" ? (
                  <div key={key} className="user-text">
                    {block.text}
                  </div>
                ) : block.citations && block.citations.length > 0 ? (
                  <div key={key}>
                    <Markdown text={block.text} />
                    <Citations citations={block.citations} />
                  </div>
                ) : (
                  <Markdown key={key} text={block.text} />
                );
              case "tool_call":
                return <ToolCallStep key={key} call={block} result={results?.get(block.id)} running={replying} />;
              case "server_tool": {
                // A provider-run tool: its use (or Responses item) shows with its result; a result shows there.
                if (
                  block.part === "result" &&
                  content.some((b) => b.type === "server_tool" && b.part === "use" && b.callId === block.callId)
                )
                  return null;
                const answer = content.find(
                  (b): b is ServerToolBlock =>
                    b.type === "server_tool" && b.part === "result" && b.callId === block.callId,
                );
                return (
                  <ServerToolStep
                    key={key}
                    use={block}
                    result={block.part === "use" ? answer : undefined}
                    sessionId={sessionId}
                    path={view.path}
                  />
                );
              }
              case "tool_result":
                return (
                  <details key={key} className={`tool ${block.isError ? "tool-error" : ""}`}>
                    <summary>
                      Tool result{block.toolName ? `: ${block.toolName}` : ""}
                      {block.isError ? " (error)" : ""}
                      {pruned?.has(i) && <PrunedMark tokens={pruned.get(i) ?? 0} />}
                    </summary>
                    <pre>{block.text}</pre>
                  </details>
                );
              case "image":
                return <MessageImage key={key} block={block} />;
              case "document":
              case "text_file":
                return <MessageFileChip key={key} block={block} />;
              default:
                return null;
            }
          })}
        </div>
      )}

      {status === "stopped" && entry.role === "assistant" && !hasContent(content) ? (
        <div className="error-box stopped-box">
          <span>Stopped before the reply started.</span>
          <button
            type="button"
            className="primary"
            disabled={busy}
            title={busyTitle}
            onClick={() => void retry(sessionId, entry, last, view.session?.leafId ?? undefined)}
          >
            Retry
          </button>
        </div>
      ) : (
        (status === "stopped" || status === "interrupted") && <p className="status-note">{STATUS_NOTE[status]}</p>
      )}
      {continuable && !replying && (
        <div className="continue-box">
          <span>The reply was cut off by the output limit.</span>
          <button
            type="button"
            className="primary"
            disabled={busy}
            title={busyTitle}
            onClick={() => void continueReply(sessionId, last.id, view.session?.leafId ?? undefined)}
          >
            Continue
          </button>
        </div>
      )}
      {status === "error" && last.error && (
        <div className="error-box" role="alert">
          <span>{describeFailure(last.error)}</span>
          {entry.role === "assistant" && (
            <button
              type="button"
              className="primary"
              disabled={busy}
              title={busyTitle}
              onClick={() => void retry(sessionId, entry, last, view.session?.leafId ?? undefined)}
            >
              Retry
            </button>
          )}
        </div>
      )}

      {passages && passages.length > 0 && <PinnedPassages sessionId={sessionId} passages={passages} />}
      {!editing && (
        <MessageActions
          entry={entry}
          last={last}
          text={text}
          snippet={snippet(text, 60)}
          visibility={visibility}
          pinned={pinned}
          atLeaf={atLeaf}
          busyTitle={busy ? busyTitle : undefined}
          maintenanceHere={maintenance === "here"}
          compactBusyTitle={compactBusy ? compactTitle : undefined}
        />
      )}
    </article>
  );
});

/**
 * Retry a failed reply: a new version of it — or, for a failed continuation, continue again from
 * what was there (the partial, or what the failed continuation managed to write).
 */
function retry(
  sessionId: MessageEntry["sessionId"],
  head: MessageEntry,
  failed: MessageEntry,
  leafOnScreen: EntryId | undefined,
): Promise<void> {
  if (failed === head || failed.continues === undefined) return regenerate(sessionId, head.id, head);
  const from: EntryId = hasContent(failed.content) ? failed.id : failed.continues;
  return continueReply(sessionId, from, leafOnScreen);
}

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
