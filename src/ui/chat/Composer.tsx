import { useEffect, useRef, useState } from "react";
import { pasteOutcome } from "../../core/attachments/paste";
import type { Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { preloadReplyCode } from "../../state/app/lazy";
import { useUiStore } from "../../state/app/ui-store";
import {
  clearComposerDraft,
  composerDraftChanged,
  flushAllComposerDrafts,
  flushComposerDraft,
  loadComposerDraft,
} from "../../state/composer/composer-drafts";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { stopReply } from "../../state/reply/reply-lane";
import { useStreamStore } from "../../state/reply/stream-store";
import { sendMessage } from "../../state/send/send";
import { AttachButton, filesOf } from "./AttachButton";
import { AttachmentTray } from "./lazy-chat";
import { ToolsMenu } from "./lazy-tools";
import { useComposerAttachments } from "./use-composer-attachments";
import { usePreloadReplyCode } from "./use-preload-reply-code";

/**
 * The message box. Its text belongs to the chat on screen (a draft per chat, kept across reloads:
 * composer-drafts.ts), so text typed in one chat never follows the user into another. While a
 * reply runs, Enter queues the message behind it (sent as its child once it is done).
 */
export function Composer({
  sessionId,
  session,
  leafId,
}: {
  sessionId: SessionId | null;
  /** The open session (for its model: the provider code is loaded ahead of the first send). */
  session: Session | undefined;
  /** The leaf on screen: a new message answers what the user sees. */
  leafId: EntryId | null | undefined;
}) {
  const [text, setText] = useState("");
  const ref = useRef<HTMLTextAreaElement>(null);
  const files = useComposerAttachments(sessionId, session, leafId);
  usePreloadReplyCode(session);
  const sendable = (text.trim() !== "" || files.attachments.length > 0) && files.pending === 0 && !files.blocked;
  // The chat on screen now (a failed send puts its text back only if the user is still there).
  const onScreen = useRef(sessionId);
  onScreen.current = sessionId;
  const seed = useUiStore((s) => s.composerSeed);
  const focusNonce = useUiStore((s) => s.composerFocus);
  const compacting = useMaintenanceStore((s) => sessionId !== null && s.op?.sessionId === sessionId);
  // A reply being prepared or streaming can be stopped; one kept unsaved (storage full) cannot.
  const replying = useStreamStore((s) => {
    const phase = sessionId ? s.replies[sessionId]?.phase : undefined;
    return phase === "preparing" || phase === "streaming";
  });

  // The chat's own draft: restored when it opens, the previous chat's written when it is left.
  useEffect(() => {
    let current = true;
    setText("");
    void loadComposerDraft(sessionId).then((draft) => {
      if (current) setText((typed) => typed || draft);
    });
    return () => {
      current = false;
      void flushComposerDraft(sessionId);
    };
  }, [sessionId]);

  useEffect(() => {
    window.addEventListener("pagehide", flushAllComposerDrafts);
    return () => window.removeEventListener("pagehide", flushAllComposerDrafts);
  }, []);

  const edit = (next: string) => {
    setText(next);
    composerDraftChanged(sessionId, next);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new seed only, not a session change
  useEffect(() => {
    if (seed) {
      edit(seed.text);
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
    if (!sendable) return;
    const sent = text;
    const from = sessionId;
    setText("");
    void clearComposerDraft(from);
    const attached = files.take();
    const ok = await sendMessage(sent, leafId, attached, session);
    if (!ok) {
      // Keep what the user typed if it could not be saved: in its chat's draft, and in the composer
      // if that chat is still the one on screen.
      if (onScreen.current === from) setText((t) => t || sent);
      if (sent.trim()) composerDraftChanged(from, sent);
      files.restore(from, attached);
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes("Files")) e.preventDefault();
      }}
      onDrop={(e) => {
        // Files dropped on the composer are attached (defaultPrevented tells the window's import drop to stay out).
        const dropped = filesOf(e.dataTransfer);
        if (dropped.length === 0) return;
        e.preventDefault();
        void files.add(dropped);
      }}
    >
      <AttachmentTray
        attachments={files.attachments}
        pending={files.pending}
        problem={files.problem}
        onRemove={files.remove}
      />
      <AttachButton onFiles={(picked) => void files.add(picked)} />
      <ToolsMenu sessionId={sessionId} session={session} />
      <textarea
        ref={ref}
        aria-label="Message"
        placeholder={
          compacting
            ? "Message Grove… (sent right after the compaction)"
            : replying
              ? "Message Grove… (sent right after this reply)"
              : "Message Grove… (Enter to send, Shift+Enter for a new line)"
        }
        rows={Math.min(10, Math.max(1, text.split("\n").length))}
        value={text}
        onFocus={() => preloadReplyCode(session)}
        onChange={(e) => edit(e.target.value)}
        onPaste={(e) => {
          // A pasted screenshot or file is attached; pasted text is typed as usual, unless it is so
          // long that laying it out in the box would freeze the tab (core/attachments/paste.ts).
          const pasted = filesOf(e.clipboardData);
          if (pasted.length > 0) {
            e.preventDefault();
            void files.add(pasted);
            return;
          }
          const pastedText = e.clipboardData.getData("text/plain");
          const outcome = pasteOutcome(pastedText);
          if (outcome.kind === "type") return;
          e.preventDefault();
          void files.addText(outcome.name, pastedText);
        }}
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
        <button type="submit" className="primary" disabled={!sendable}>
          Send
        </button>
      )}
    </form>
  );
}
