import { useEffect, useRef, useState } from "react";
import type { EntryId, SessionId } from "../../core/session/ids";
import { sendMessage } from "../../state/actions/chat";
import { stopReply } from "../../state/actions/reply";
import { useMaintenanceStore, useUiStore } from "../../state/stores";

export function Composer({
  sessionId,
  leafId,
  replying,
}: {
  sessionId: SessionId | null;
  /** The leaf on screen: a new message answers what the user sees. */
  leafId: EntryId | null | undefined;
  replying: boolean;
}) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  const seed = useUiStore((s) => s.composerSeed);
  const focusNonce = useUiStore((s) => s.composerFocus);
  const compacting = useMaintenanceStore((s) => sessionId !== null && s.op?.sessionId === sessionId);

  useEffect(() => {
    if (seed) {
      setText(seed.text);
      ref.current?.focus();
    }
  }, [seed]);

  useEffect(() => {
    if (focusNonce > 0) ref.current?.focus();
  }, [focusNonce]);

  // Esc stops the reply from anywhere on the page (dialogs handle their own Esc first).
  useEffect(() => {
    if (!replying || !sessionId) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) stopReply(sessionId);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [replying, sessionId]);

  // Typing into a new chat: focus the composer when the session changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus on session switch only
  useEffect(() => {
    ref.current?.focus();
  }, [sessionId]);

  const send = async () => {
    if (!text.trim() || replying) return;
    const sent = text;
    setText("");
    const ok = await sendMessage(sent, leafId);
    if (!ok) setText((t) => t || sent); // keep what the user typed if it could not be saved
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <textarea
        ref={ref}
        aria-label="Message"
        placeholder={
          compacting
            ? "Message Grove… (sent right after the compaction)"
            : "Message Grove… (Enter to send, Shift+Enter for a new line)"
        }
        rows={Math.min(10, Math.max(1, text.split("\n").length))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      {replying && sessionId ? (
        <button type="button" className="stop" onClick={() => stopReply(sessionId)}>
          Stop
        </button>
      ) : (
        <button type="submit" className="primary" disabled={!text.trim()}>
          Send
        </button>
      )}
    </form>
  );
}
