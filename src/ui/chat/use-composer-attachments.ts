import { useCallback, useEffect, useRef, useState } from "react";
import type { AttachmentBlock, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { attachmentProblemAt } from "../../state/app/lazy";
import { nextTask } from "../../state/app/next-task";
import { attachFile, pastedTextBlock } from "../../state/composer/attachments";
import {
  composerAttachments,
  loadComposerAttachments,
  setComposerAttachments,
} from "../../state/composer/composer-attachments";
import { useSettingsStore } from "../../state/settings/settings-store";
import { attachmentCost, attachmentSize } from "./attachment-cost";

/**
 * The composer's attachments for the chat on screen: adding files (read and stored one by one; a
 * file Grove cannot take is said in words and the others still come), removing one, taking them all
 * for a send (and putting them back if it fails). `problem` is why they cannot be sent to the chat's
 * model as they are, checked again whenever they or the model change, so a model that reads no
 * images says so before Send.
 */
export function useComposerAttachments(
  sessionId: SessionId | null,
  session: Session | undefined,
  leafId: EntryId | null | undefined,
) {
  const [attachments, setAttachments] = useState<AttachmentBlock[]>(() => composerAttachments(sessionId));
  const [pending, setPending] = useState(0);
  const [readError, setReadError] = useState<string | null>(null);
  const [limitProblem, setLimitProblem] = useState<string | null>(null);
  const current = useRef(sessionId);
  current.current = sessionId;
  const defaultModel = useSettingsStore((s) => s.settings.defaultModel);
  const overrides = useSettingsStore((s) => s.settings.modelOverrides);

  useEffect(() => {
    setAttachments(composerAttachments(sessionId));
    setReadError(null);
    // After a reload the chat's files come back from its draft.
    void loadComposerAttachments(sessionId).then((stored) => {
      if (current.current === sessionId) setAttachments(stored);
    });
  }, [sessionId]);

  const update = useCallback((owner: SessionId | null, next: (prev: AttachmentBlock[]) => AttachmentBlock[]) => {
    const value = next(composerAttachments(owner));
    void setComposerAttachments(owner, value);
    if (current.current === owner) setAttachments(value);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the model (session's or default) and its overrides decide the answer
  useEffect(() => {
    let live = true;
    void attachmentProblemAt(attachments, leafId).then((p) => {
      if (live) setLimitProblem(p);
    });
    return () => {
      live = false;
    };
  }, [attachments, leafId, session?.model, defaultModel, overrides]);

  const add = useCallback(
    async (files: readonly File[]) => {
      const owner = current.current;
      setReadError(null);
      setPending((n) => n + files.length);
      const errors: string[] = [];
      for (const file of files) {
        const outcome = await attachFile(file);
        setPending((n) => n - 1);
        if (outcome.kind === "ok") update(owner, (prev) => [...prev, outcome.block]);
        else errors.push(outcome.message);
      }
      if (errors.length > 0 && current.current === owner) setReadError(errors.join(" "));
    },
    [update],
  );

  /**
   * Attaches pasted text as a text file. A paste of 1 MB is a lot of work for one task (issue 24
   * item 10), so it is spread: the paste event's task only reads the clipboard, the chip's size and
   * its cost are worked out in a task each, and the tray shows it (and the draft stores it) in the last.
   */
  const addText = useCallback(
    async (name: string, text: string) => {
      const owner = current.current;
      setReadError(null);
      setPending((n) => n + 1);
      await nextTask();
      const block = pastedTextBlock(name, text);
      attachmentSize(block);
      await nextTask();
      attachmentCost(block);
      await nextTask();
      setPending((n) => n - 1);
      update(owner, (prev) => [...prev, block]);
    },
    [update],
  );

  const remove = useCallback(
    (index: number) => {
      setReadError(null);
      update(current.current, (prev) => prev.filter((_, i) => i !== index));
    },
    [update],
  );

  /** Empties the tray and returns what was in it (for a send). */
  const take = useCallback((): AttachmentBlock[] => {
    const owner = current.current;
    const taken = composerAttachments(owner);
    update(owner, () => []);
    return taken;
  }, [update]);

  /** Puts attachments back in `owner`'s tray (a send that failed), before any added meanwhile. */
  const restore = useCallback(
    (owner: SessionId | null, blocks: readonly AttachmentBlock[]) => update(owner, (prev) => [...blocks, ...prev]),
    [update],
  );

  return {
    attachments,
    pending,
    problem: readError ?? limitProblem,
    blocked: limitProblem,
    add,
    addText,
    remove,
    take,
    restore,
  };
}
