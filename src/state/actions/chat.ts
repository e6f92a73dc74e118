/**
 * The chat's user actions. Each one is "append entries, move the leaf" in one db transaction
 * (db/ does the transaction), then, where a reply is due, a reply with its maintenance
 * (conversation.ts). A message sent while automatic maintenance runs is queued and sent after it.
 */
import type { Entry, MessageEntry, Session } from "../../core/session/entries";
import { messageText } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId, newSessionId } from "../../core/session/ids";
import { titleFromText } from "../../core/session/title";
import { buildTreeIndex, deepestLeafFrom, siblingsOf } from "../../core/session/tree";
import { appendEntries, getEntries, getEntry, moveLeaf } from "../../db/entries";
import { createSession, getSession, setAutoTitle } from "../../db/sessions";
import { useSettingsStore, useUiStore } from "../stores";
import { type ReplyOptions, replyAndMaintain } from "./conversation";
import { holdSession, queueMessage, shouldQueue } from "./queued-message";
import { reportActionError } from "./report-error";
import { nameChatWithModel } from "./title";

/**
 * Runs a reply (and its maintenance) in the background. The chat is held meanwhile: a message
 * queued during it is sent once all of it is done (queued-message.ts).
 */
function startReply(sessionId: SessionId, parentId: EntryId, opts: ReplyOptions = {}): Promise<void> {
  const release = holdSession(sessionId);
  return replyAndMaintain(sessionId, parentId, opts)
    .catch((e) => reportActionError("The reply could not be saved", e))
    .finally(release);
}

/**
 * Sends a queued message in its own chat, at its leaf, whichever chat is on screen (the queue's
 * sender, wired at boot). False when the chat is gone.
 */
export async function sendQueuedMessage(sessionId: SessionId, text: string): Promise<boolean> {
  const session = await getSession(sessionId);
  if (!session) return false;
  const entry = userEntry(sessionId, session.leafId, text);
  await appendEntries(sessionId, [entry], { kind: "move", to: entry.id });
  if (session.leafId === null) await setAutoTitle(sessionId, titleFromText(text));
  void startReply(sessionId, entry.id, { preflight: true });
  return true;
}

function userEntry(sessionId: SessionId, parentId: EntryId | null, text: string): MessageEntry {
  return {
    id: newEntryId(),
    sessionId,
    parentId,
    createdAt: Date.now(),
    type: "message",
    role: "user",
    content: [{ type: "text", text }],
    status: "complete",
  };
}

/**
 * Send a message as a child of `parentId`, the leaf the user was looking at (creating the session on
 * the first message). Replying to what is on screen, not to whatever the stored leaf is now, is what
 * makes two tabs sending from the same point produce siblings instead of an interleaved chain.
 */
export async function sendMessage(text: string, parentId?: EntryId | null): Promise<SessionId | null> {
  const trimmed = text.trim();
  if (!trimmed) return null;
  try {
    let sessionId = useUiStore.getState().sessionId;
    if (shouldQueue(sessionId)) {
      // Maintenance runs on this chat: the message waits for it (the composer stays usable).
      await queueMessage(sessionId, text);
      return sessionId;
    }
    const session = sessionId ? await getSession(sessionId) : undefined;
    let entry: MessageEntry;
    if (!session) {
      sessionId = newSessionId();
      entry = userEntry(sessionId, null, text);
      const now = Date.now();
      const fresh: Session = {
        id: sessionId,
        title: titleFromText(text),
        titleSource: "auto",
        createdAt: now,
        updatedAt: now,
        leafId: entry.id,
        model: { ...useSettingsStore.getState().settings.defaultModel },
      };
      await createSession(fresh, [entry]);
      useUiStore.setState({ sessionId });
    } else {
      const parent = parentId === undefined ? session.leafId : parentId;
      entry = userEntry(session.id, parent, text);
      await appendEntries(session.id, [entry], { kind: "move", to: entry.id });
      if (parent === null) await setAutoTitle(session.id, titleFromText(text));
    }
    const reply = startReply(entry.sessionId, entry.id, { preflight: true });
    // A new chat, once its first reply is in: a better title than the first words, if enabled.
    if (!session) void reply.then(() => nameChatWithModel(entry.sessionId));
    return entry.sessionId;
  } catch (e) {
    reportActionError("Your message could not be saved", e);
    return null;
  }
}

/** Edit a user message: a new sibling with the new text, then a reply to it. The original stays. */
export async function editMessage(sessionId: SessionId, originalId: EntryId, text: string): Promise<void> {
  const trimmed = text.trim();
  if (!trimmed) return;
  try {
    const original = await getEntry(originalId);
    if (!original || original.sessionId !== sessionId) return;
    const entry = userEntry(sessionId, original.parentId, text);
    await appendEntries(sessionId, [entry], { kind: "move", to: entry.id });
    useUiStore.setState({ editingId: null });
    void startReply(sessionId, entry.id, { preflight: true });
  } catch (e) {
    reportActionError("The edit could not be saved", e);
  }
}

/** Regenerate (or Retry) an assistant reply: a new sibling reply to the same parent. */
export async function regenerate(sessionId: SessionId, assistantId: EntryId): Promise<void> {
  try {
    const target = await getEntry(assistantId);
    if (!target || target.parentId === null) return;
    await moveLeaf(sessionId, target.parentId);
    await startReply(sessionId, target.parentId);
  } catch (e) {
    reportActionError("Could not regenerate the reply", e);
  }
}

/**
 * Continue a reply cut off by the output limit: the model is asked to go on exactly where it
 * stopped; the continuation is a new entry (`continues`) shown joined to the partial reply.
 */
export async function continueReply(sessionId: SessionId, partialId: EntryId): Promise<void> {
  try {
    const session = await getSession(sessionId);
    if (!session?.leafId) return;
    await startReply(sessionId, session.leafId, { continues: partialId });
  } catch (e) {
    reportActionError("Could not continue the reply", e);
  }
}

/**
 * Branch from here (DESIGN §5): on an assistant (or any non-user) entry, the next message continues
 * from it; on a user message it is Edit.
 */
export async function branchFromHere(sessionId: SessionId, entry: Entry): Promise<void> {
  if (entry.type === "message" && entry.role === "user") {
    useUiStore.setState({ editingId: entry.id });
    return;
  }
  try {
    await moveLeaf(sessionId, entry.id);
    useUiStore.setState((s) => ({ composerFocus: s.composerFocus + 1 }));
  } catch (e) {
    reportActionError("Could not branch here", e);
  }
}

/**
 * From a position in the middle of the tree (after Branch from here), back down to the newest leaf
 * below it: the conversation as it was before the user branched.
 */
export async function returnToLatest(sessionId: SessionId, fromId: EntryId): Promise<void> {
  try {
    const index = buildTreeIndex(await getEntries(sessionId));
    await moveLeaf(sessionId, deepestLeafFrom(index, fromId));
  } catch (e) {
    reportActionError("Could not return to the latest message", e);
  }
}

/** Show another version (sibling) of an entry: the leaf moves to the newest leaf below it. */
export async function showVersion(sessionId: SessionId, entryId: EntryId, step: -1 | 1): Promise<void> {
  try {
    const index = buildTreeIndex(await getEntries(sessionId));
    const { siblings, position } = siblingsOf(index, entryId);
    const next = siblings[position - 1 + step];
    if (!next) return;
    await moveLeaf(sessionId, deepestLeafFrom(index, next.id));
  } catch (e) {
    reportActionError("Could not switch versions", e);
  }
}

export function userText(entry: Entry): string {
  return entry.type === "message" ? messageText(entry.content) : "";
}
