/**
 * The chat's user actions. Each one is "append entries, move the leaf" in one db transaction
 * (db/ does the transaction), then, where a reply is due, a reply with its maintenance
 * (maintenance/triggers.ts). A message sent while a reply or maintenance runs in its chat is queued and
 * sent after it (queued-message.ts).
 */
import {
  type AttachmentBlock,
  type Block,
  type Entry,
  isAttachmentBlock,
  type MessageEntry,
  type Session,
} from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId, newSessionId } from "../../core/session/ids";
import { firstWordsTitle } from "../../core/session/title";
import { appendEntries, getEntry, getSessionPath, moveLeaf, type SessionPath } from "../../db/entries";
import { createSession, setAutoTitle } from "../../db/sessions";
import { chatActivity } from "../activity/chat-activity";
import { holdSession } from "../activity/holds";
import { loadChunk } from "../app/chunk-load";
import { reportActionError } from "../app/report-error";
import { pushNotice, useUiStore } from "../app/ui-store";
import { attachmentProblemFor } from "../composer/attachments";
import type { ReplyOptions } from "../maintenance/triggers";
import { missingKeyFor } from "../models/chat-target";
import { clearPendingReply, showPendingReply } from "../reply/reply-lane";
import { restoreNewChatSetup, takeNewChatSetup } from "../sessions/chat-setup";
import { useSettingsStore } from "../settings/settings-store";
import { knownPath, rememberPath } from "./known-paths";
import {
  beginRegenerate,
  beginSend,
  dropSend,
  type PendingRegenerate,
  returnEdit,
  type SendTarget,
  sendSaved,
} from "./pending-send";
import { queueMessage } from "./queued-message";

/**
 * Runs a reply (and its maintenance) in the background. The chat is held from the first instant: a
 * message sent meanwhile queues behind the reply, on the same branch, and goes out as the child of
 * what is then the leaf once all of it is done (queued-message.ts). The reply shows at once, with Stop.
 */
function startReply(sessionId: SessionId, parentId: EntryId, opts: ReplyOptions = {}): Promise<void> {
  const release = holdSession(sessionId);
  showPendingReply(sessionId, parentId);
  // The reply engine and the provider code are fetched on demand (the composer's focus fetches them early).
  return loadChunk(() => import("../maintenance/triggers").then((m) => m.replyAndMaintain))
    .then(
      (replyAndMaintain) =>
        replyAndMaintain(sessionId, parentId, opts).catch((e) => reportActionError("The reply could not be saved", e)),
      () => {}, // the code of the reply could not be fetched: said by loadChunk; the message is stored
    )
    .finally(() => {
      clearPendingReply(sessionId);
      release();
    });
}

/**
 * Sends a queued message in its own chat, at its leaf, whichever chat is on screen (the queue's
 * sender, wired at boot). False when the chat is gone; throws when the message could not be stored.
 */
export async function sendQueuedMessage(sessionId: SessionId, text: string): Promise<boolean> {
  const read = await getSessionPath(sessionId, undefined, knownPath);
  if (!read) return false;
  await sendAt(read, text, read.session.leafId);
  return true;
}

function userEntry(
  sessionId: SessionId,
  parentId: EntryId | null,
  text: string,
  attachments: readonly AttachmentBlock[] = [],
): MessageEntry {
  const content: Block[] = text.trim() ? [{ type: "text", text }, ...attachments] : [...attachments];
  return {
    id: newEntryId(),
    sessionId,
    parentId,
    createdAt: Date.now(),
    type: "message",
    role: "user",
    content,
    status: "complete",
  };
}

/** A new chat whose first message is being written: a second Enter meanwhile queues into it. */
let creating: SessionId | null = null;

/**
 * Send a message as a child of `parentId`, the leaf the user was looking at (creating the session on
 * the first message). Replying to what is on screen, not to whatever the stored leaf is now, is what
 * makes two tabs sending from the same point produce siblings instead of an interleaved chain.
 * While a reply or maintenance still runs in this chat, the message is queued instead and sent as
 * the child of what is then the leaf: never a silent fork beside the reply in flight.
 *
 * The message and the reply placeholder (with Stop) are on screen before the first await
 * (pending-send.ts), when the chat on screen (`onScreen`) says who answers; the writes follow.
 * Resolves null when nothing was stored: the composer then gets the text back.
 */
export async function sendMessage(
  text: string,
  parentId?: EntryId | null,
  attachments: readonly AttachmentBlock[] = [],
  onScreen?: Session,
): Promise<SessionId | null> {
  if (!text.trim() && attachments.length === 0) return null;
  const sessionId = useUiStore.getState().sessionId ?? creating;
  if (sessionId && !chatActivity(sessionId).idle) {
    if (attachments.length > 0) {
      // The queue holds text only; the attachments stay in the composer until this chat is free.
      pushNotice(
        "info",
        "Attachments are sent once the reply or compaction in this chat is done. Press Send again then.",
      );
      return null;
    }
    await queueMessage(sessionId, text);
    return sessionId;
  }
  if (!sessionId) return sendFirst(text, attachments);
  // Busy before the first await: a second Enter now queues instead of forking beside this one.
  const release = holdSession(sessionId);
  // Shown at once when the chat on screen says where the message goes and that it can be sent.
  const known = onScreen?.id === sessionId ? onScreen : undefined;
  if (known && refuseWithoutKey(known)) {
    release();
    return null;
  }
  const parent = parentId === undefined ? known?.leafId : parentId;
  let shown = known && parent !== undefined ? showSend(userEntry(sessionId, parent, text, attachments)) : null;
  // Once sendAt has it, sendAt takes the message off the screen if it cannot be stored.
  let handedOver = false;
  try {
    // One read for the whole send: the session and the path to the parent, passed on to the reply.
    const read = await getSessionPath(sessionId, parent, knownPath);
    if (!read || refuseWithoutKey(read.session)) {
      if (shown) unshowSend(shown);
      return read ? null : await sendFirst(text, attachments);
    }
    // Limits and what the model reads, checked before anything is stored: the composer keeps it all.
    const problem = attachmentProblemFor(attachments, read.path, read.session);
    if (problem) {
      if (shown) unshowSend(shown);
      pushNotice("error", problem);
      return null;
    }
    const to = parentId === undefined ? read.session.leafId : parentId;
    if (shown && shown.parentId !== to) {
      // The stored leaf is not the one that was on screen: shown again, under the right parent.
      unshowSend(shown);
      shown = null;
    }
    handedOver = true;
    await sendAt(read, text, to, attachments, shown ?? undefined);
    return read.session.id;
  } catch (e) {
    // The text goes back to the composer (null): nothing of it may stay on screen as if sent.
    if (shown && !handedOver) unshowSend(shown);
    reportActionError("Your message could not be saved", e);
    return null;
  } finally {
    release();
  }
}

/** Puts `entry` and the reply placeholder under it on screen (in this task: they render in the next frame). */
function showSend(entry: MessageEntry, target: SendTarget = { kind: "existing_chat" }): MessageEntry {
  beginSend(entry, target);
  showPendingReply(entry.sessionId, entry.id);
  return entry;
}

/** Takes a message shown by `showSend` off the screen again (it was refused or could not be stored). */
function unshowSend(entry: MessageEntry): void {
  dropSend(entry.sessionId, entry.id);
  clearPendingReply(entry.sessionId);
}

/**
 * No key for the chat's provider: nothing is stored or sent (the composer keeps the text) and the
 * user reads what to do. True when the send was refused.
 */
function refuseWithoutKey(session: Session | undefined): boolean {
  const provider = missingKeyFor(session, useSettingsStore.getState().settings);
  if (!provider) return false;
  pushNotice(
    "error",
    `Nothing was sent: there is no ${provider.name} API key yet. Paste your key in the box on the new-chat screen or in Settings, then send again (your message is still in the box).`,
    { cause: { kind: "missing-key", providerId: provider.id } },
  );
  return true;
}

/**
 * Appends the message under `parentId` (the end of `read.path`) and starts the reply to it. `shown`:
 * the entry already on screen (sendMessage); otherwise it is shown here, before the write.
 */
async function sendAt(
  read: SessionPath,
  text: string,
  parentId: EntryId | null,
  attachments: readonly AttachmentBlock[] = [],
  shown?: MessageEntry,
): Promise<void> {
  const { session, path } = read;
  const entry = shown ?? showSend(userEntry(session.id, parentId, text, attachments));
  const release = holdSession(session.id);
  try {
    try {
      await appendEntries(session.id, [entry], { kind: "move", to: entry.id });
    } catch (e) {
      unshowSend(entry);
      throw e;
    }
    sendSaved(session.id, entry.id);
    // A title is a nicety: failing to write it must not hold back the reply to a stored message.
    if (parentId === null)
      await setAutoTitle(session.id, firstWordsTitle(text, attachments)).catch((e: unknown) =>
        reportActionError("The chat's title could not be saved", e),
      );
    const withEntry = [...path, entry];
    rememberPath(withEntry);
    const reply = startReply(session.id, entry.id, { preflight: true, read: { session, path: withEntry } });
    if (parentId === null) nameOnceReplied(session.id, reply);
  } finally {
    release();
  }
}

/**
 * The first message: the chat shows it at once (the view switches to the new chat before its row
 * exists), then the session is created with it (one transaction), then the reply.
 */
async function sendFirst(text: string, attachments: readonly AttachmentBlock[]): Promise<SessionId | null> {
  if (refuseWithoutKey(undefined)) return null;
  const problem = attachmentProblemFor(attachments, [], undefined);
  if (problem) {
    pushNotice("error", problem);
    return null;
  }
  const sessionId = newSessionId();
  const entry = userEntry(sessionId, null, text, attachments);
  const now = Date.now();
  // The prompt and parameters set before the first message (chat-setup.ts).
  const setup = takeNewChatSetup();
  const fresh: Session = {
    id: sessionId,
    title: firstWordsTitle(text, attachments),
    titleSource: "auto",
    createdAt: now,
    updatedAt: now,
    leafId: entry.id,
    model: { ...useSettingsStore.getState().settings.defaultModel },
    ...setup,
  };
  creating = sessionId;
  const release = holdSession(sessionId);
  showSend(entry, { kind: "new_chat", session: fresh });
  useUiStore.setState({ sessionId });
  try {
    await createSession(fresh, [entry]);
  } catch (e) {
    // Nothing was stored: back to the new-chat screen with everything the user had set there.
    unshowSend(entry);
    restoreNewChatSetup(setup);
    if (useUiStore.getState().sessionId === sessionId) useUiStore.setState({ sessionId: null });
    reportActionError("Your message could not be saved", e);
    return null;
  } finally {
    creating = null;
    release();
  }
  sendSaved(sessionId, entry.id);
  const reply = startReply(sessionId, entry.id, { preflight: true, read: { session: fresh, path: [entry] } });
  nameOnceReplied(sessionId, reply);
  return sessionId;
}

/**
 * Once a first reply is in (a new chat's, a new first message's, or a retried first reply's): a
 * better title than the first words, if enabled; title.ts asks only while the title is still those.
 */
function nameOnceReplied(sessionId: SessionId, reply: Promise<unknown>): void {
  void reply.then(async () => {
    const { nameChatWithModel } = await import("./title");
    return nameChatWithModel(sessionId);
  });
}

/**
 * Why `attachments` cannot be sent as a child of `parentId` in the chat on screen (limits, what its
 * model reads), in a sentence; null when they can. The composer asks first, to say it beside them.
 */
export async function attachmentProblemAt(
  attachments: readonly AttachmentBlock[],
  parentId: EntryId | null | undefined,
): Promise<string | null> {
  if (attachments.length === 0) return null;
  const sessionId = useUiStore.getState().sessionId;
  const read = sessionId ? await getSessionPath(sessionId, parentId, knownPath) : undefined;
  return attachmentProblemFor(attachments, read?.path ?? [], read?.session);
}

/**
 * Edit a user message: a new sibling with the new text (and the original's attachments), then a
 * reply to it. The original stays. With the original as on screen (`shown`), the new version and
 * the reply placeholder are on screen before the first await (pending-send.ts), the editor closed;
 * if the write fails they leave again and the editor reopens with the text.
 */
export async function editMessage(
  sessionId: SessionId,
  originalId: EntryId,
  text: string,
  shown?: MessageEntry,
): Promise<void> {
  if (!text.trim()) return;
  const release = holdSession(sessionId);
  let entry: MessageEntry | null = null;
  try {
    const original = shown?.id === originalId ? shown : await getEntry(originalId);
    if (!original || original.sessionId !== sessionId) return;
    const attachments = original.type === "message" ? original.content.filter(isAttachmentBlock) : [];
    entry = userEntry(sessionId, original.parentId, text, attachments);
    beginSend(entry, { kind: "edit", replaces: original.id });
    showPendingReply(sessionId, entry.id);
    useUiStore.setState({ editingId: null });
    await appendEntries(sessionId, [entry], { kind: "move", to: entry.id });
    sendSaved(sessionId, entry.id);
    void startReply(sessionId, entry.id, { preflight: true });
  } catch (e) {
    if (entry) {
      unshowSend(entry);
      // Nothing is lost: the editor opens again with what the user wrote.
      returnEdit(originalId, text);
      useUiStore.setState({ editingId: originalId });
    }
    reportActionError("The edit could not be saved", e);
  } finally {
    release();
  }
}

/**
 * Regenerate (or Retry) an assistant reply: a new sibling reply to the same parent. With the reply as
 * on screen (`shown`), the path cut at its parent and the placeholder (with Stop) are on screen
 * before the first await; they leave again if the leaf cannot be moved.
 */
export async function regenerate(sessionId: SessionId, assistantId: EntryId, shown?: MessageEntry): Promise<void> {
  const release = holdSession(sessionId);
  const early = shown?.id === assistantId && shown.parentId !== null ? showRegenerate(shown) : null;
  try {
    const target = await getEntry(assistantId);
    if (!target || target.parentId === null) {
      if (early) unshowRegenerate(early);
      return;
    }
    const pending = early ?? showRegenerate(target);
    try {
      await moveLeaf(sessionId, target.parentId);
    } catch (e) {
      if (pending) unshowRegenerate(pending);
      throw e;
    }
    if (pending) sendSaved(sessionId, pending.replaces);
    // Retry of a reply that failed before any content: a failure again writes no second empty version.
    const retryOf =
      target.type === "message" && target.status === "error" && target.content.length === 0 ? target : undefined;
    const reply = startReply(sessionId, target.parentId, retryOf ? { retryOf } : {});
    nameOnceReplied(sessionId, reply);
    await reply;
    // Normally settled once the chat reads the moved leaf; a retry that fails again moves the leaf
    // back to the failed reply, maybe before that read: the cut must not outlive the reply.
    if (pending) dropSend(sessionId, pending.replaces);
  } catch (e) {
    reportActionError("Could not regenerate the reply", e);
  } finally {
    release();
  }
}

/** Shows the path cut at `reply`'s parent and the new reply's placeholder there (in this task). */
function showRegenerate(reply: Entry): PendingRegenerate | null {
  if (reply.parentId === null) return null;
  const pending: PendingRegenerate = { sessionId: reply.sessionId, replaces: reply.id, parentId: reply.parentId };
  beginRegenerate(pending);
  showPendingReply(reply.sessionId, reply.parentId);
  return pending;
}

function unshowRegenerate(pending: PendingRegenerate): void {
  dropSend(pending.sessionId, pending.replaces);
  clearPendingReply(pending.sessionId);
}

/**
 * Continue a reply cut off by the output limit: the model is asked to go on exactly where it
 * stopped; the continuation is a new entry (`continues`) shown joined to the partial reply. With
 * the leaf on screen (`leafOnScreen`), the placeholder shows before the first await.
 */
export async function continueReply(sessionId: SessionId, partialId: EntryId, leafOnScreen?: EntryId): Promise<void> {
  const release = holdSession(sessionId);
  if (leafOnScreen) showPendingReply(sessionId, leafOnScreen);
  try {
    const read = await getSessionPath(sessionId, undefined, knownPath);
    const leafId = read?.session.leafId;
    // The stored leaf is not the one on screen: the placeholder goes (startReply shows it where it belongs).
    if (leafOnScreen && leafId !== leafOnScreen) clearPendingReply(sessionId);
    if (!read || !leafId) return;
    await startReply(sessionId, leafId, { continues: partialId, read });
  } catch (e) {
    clearPendingReply(sessionId);
    reportActionError("Could not continue the reply", e);
  } finally {
    release();
  }
}

/**
 * "Continue" a tool loop that ended before the model answered (the step limit, Stop, a reload
 * mid-loop): a new loop from the chat's leaf, the tool results there going to the model (issue 28).
 */
export async function continueToolLoop(sessionId: SessionId): Promise<void> {
  const release = holdSession(sessionId);
  try {
    const read = await getSessionPath(sessionId, undefined, knownPath);
    const leafId = read?.session.leafId;
    if (!read || !leafId) return;
    await startReply(sessionId, leafId, { read });
  } catch (e) {
    reportActionError("Could not continue", e);
  } finally {
    release();
  }
}
