import { useEffect, useRef, useState } from "react";
import type { SessionId } from "../../core/session/ids";
import { saveUnsaved } from "../../state/app/lazy";
import { useStreamStore } from "../../state/reply/stream-store";
import { Markdown } from "../markdown/LazyMarkdown";
import { ThinkingView } from "./ThinkingView";
import { shownToolName } from "./tool-step-text";

function useSecondsUntil(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * The reply in flight: the only component that re-renders per (batched) token. It shows from the
 * moment the user sends (typing dots while the request is prepared), and stays, saying so, when the
 * browser's storage refused to keep the reply (with "Save now"; Grove also retries on its own).
 */
export function StreamingMessage({
  sessionId,
  joined = false,
}: {
  sessionId: SessionId;
  /** A Continue reply: no header of its own, drawn as the rest of the reply above. */
  joined?: boolean;
}) {
  const reply = useStreamStore((s) => s.replies[sessionId]);
  const seconds = useSecondsUntil(reply?.retry?.until ?? null);
  const alertRef = useRef<HTMLDivElement>(null);
  const saveError = reply?.saveError ?? null;
  // "Not saved" must be seen: bring it into view when it appears (it is below the growing text).
  useEffect(() => {
    if (saveError) alertRef.current?.scrollIntoView({ block: "nearest" });
  }, [saveError]);
  if (!reply) return null;
  const { partial, retry, phase } = reply;
  const text = partial.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
  const hasContent = partial.content.length > 0;
  const unsaved = phase === "unsaved";
  return (
    <article
      className={`message assistant streaming${joined ? " joined" : ""}${unsaved ? " unsaved" : ""}`}
      aria-label={unsaved ? "Assistant message (not saved)" : "Assistant message (streaming)"}
      aria-busy={unsaved ? undefined : "true"}
    >
      {!joined && (
        <div className="message-meta">
          <span className="role">Assistant</span>
          <span className="muted">{partial.model}</span>
        </div>
      )}
      {partial.content.map((b, i) =>
        b.type === "thinking" || b.type === "reasoning" ? (
          <ThinkingView key={`t${i.toString()}`} block={b} streaming />
        ) : null,
      )}
      {text && <Markdown text={text} streaming={!unsaved} />}
      {partial.content.map((b, i) =>
        b.type === "tool_call" ? (
          <p key={`c${i.toString()}`} className="tool-activity muted">
            Calling {shownToolName(b.name)}…
          </p>
        ) : null,
      )}
      {saveError && (
        <div className="error-box save-error" role="alert" ref={alertRef}>
          {saveError}
          {unsaved && (
            <button type="button" className="primary" onClick={() => void saveUnsaved(sessionId)}>
              Save now
            </button>
          )}
        </div>
      )}
      {unsaved ? null : retry && !hasContent ? (
        <div className="retry-wait" role="status">
          {retry.message} Retrying in {seconds} s (attempt {retry.attempt + 1} of {retry.maxAttempts}).
        </div>
      ) : reply.activity && !hasContent ? (
        <p className="tool-activity" role="status">
          {reply.activity}
        </p>
      ) : (
        !text && (
          <div className="typing" role="status" aria-label="Waiting for the reply">
            <span />
            <span />
            <span />
          </div>
        )
      )}
    </article>
  );
}
