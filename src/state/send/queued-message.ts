/**
 * Queued messages (DESIGN §4.7): a message sent while maintenance runs on its chat waits, one per
 * chat, in memory (`useQueueStore`) and in IndexedDB (db/queued.ts). Once its chat is
 * idle — no maintenance there, no reply with its maintenance in progress — it is sent, whichever
 * chat is on screen. One found after a reload was never sent: it shows as "unsent" in its chat
 * until the user sends or discards it.
 *
 * The one action for the queue; the send itself is injected (`startQueueFlusher(send)`, from boot)
 * so this module does not import the chat actions that queue into it.
 */
import type { SessionId } from "../../core/session/ids";
import { appendQueued, deleteQueued, getQueued, listQueued, putQueued, takeQueued } from "../../db/queued";
import type { QueuedRow } from "../../db/rows";
import { chatActivity, onActivityChange } from "../activity/chat-activity";
import { holdSession } from "../activity/holds";
import { isOwnerAlive, pageOwnerId, whenOwnerGone } from "../app/owner";
import { reportActionError } from "../app/report-error";
import { type QueuedMessage, useQueueStore } from "./queue-store";

/**
 * Sends `text` in `sessionId` at its leaf. Resolves false when the chat no longer exists (the
 * message goes with it); throws when it could not be stored (it is kept, unsent).
 */
export type QueuedSender = (sessionId: SessionId, text: string) => Promise<boolean>;

/** A message sent now in this chat should wait: maintenance is running on it. */
export function shouldQueue(sessionId: SessionId | null): sessionId is SessionId {
  return sessionId !== null && chatActivity(sessionId).maintaining;
}

/**
 * Queues `text` for `sessionId` (joined to what is already queued there, after a blank line). It
 * is shown at once; saving it is best effort: if that fails it is still sent from memory.
 */
export async function queueMessage(sessionId: SessionId, text: string, now: number = Date.now()): Promise<void> {
  setQueued(sessionId, (before) => ({
    text: before ? `${before.text}\n\n${text}` : text,
    queuedAt: before?.queuedAt ?? now,
    state: "waiting",
  }));
  try {
    await inOrder(() => appendQueued(sessionId, text, now, pageOwnerId()));
  } catch (e) {
    reportActionError("Your queued message could not be saved (it will still be sent unless you reload)", e);
  }
}

/** Drops the chat's queued message, unsent. Returns it (e.g. to put its text back into the composer). */
export async function discardQueued(sessionId: SessionId): Promise<QueuedMessage | undefined> {
  const message = useQueueStore.getState().queued[sessionId];
  setQueued(sessionId, () => undefined);
  try {
    await inOrder(() => deleteQueued(sessionId));
  } catch (e) {
    reportActionError("Could not discard the queued message", e);
  }
  return message;
}

const claiming = new Set<SessionId>();

/** "Send" on an unsent message: it goes out as soon as its chat is idle (now, usually). */
export async function sendUnsent(sessionId: SessionId): Promise<void> {
  const message = useQueueStore.getState().queued[sessionId];
  if (!message || message.state === "waiting") return;
  if (message.stored) {
    // Another tab that found the same row may have sent it meanwhile: only the one that takes the
    // row sends. Until then it stays unsent (the flusher leaves it alone), and a second click waits.
    if (claiming.has(sessionId)) return;
    claiming.add(sessionId);
    try {
      const row = await inOrder(() => takeQueued(sessionId));
      setQueued(sessionId, (now) => (row && now ? { ...now, state: "waiting", stored: false } : undefined));
    } catch (e) {
      reportActionError("Your queued message could not be sent", e);
    } finally {
      claiming.delete(sessionId);
    }
    return;
  }
  setQueued(sessionId, () => ({ ...message, state: "waiting" }));
}

/** A message queued in one chat now belongs to another (a handoff's new session), unsent. */
export async function moveQueued(from: SessionId, to: SessionId, message: QueuedMessage): Promise<void> {
  setQueued(to, () => ({ ...message, state: "unsent" }));
  try {
    await inOrder(() =>
      putQueued({ sessionId: to, text: message.text, queuedAt: message.queuedAt, ownerId: pageOwnerId() }),
    );
  } catch (e) {
    reportActionError("Could not keep the queued message", e);
  }
  if (from !== to) await discardQueued(from);
}

/**
 * At start-up: what was queued by a page that is gone (closed, reloaded) was never sent: it is
 * offered as unsent. A row whose page is still open (another tab — or, for a moment, the page this
 * one reloaded) is that page's to send; if that page goes away with it unsent, it is offered then.
 */
export async function loadQueued(
  ownerAlive: (ownerId: string) => Promise<boolean> = isOwnerAlive,
  ownerGone: (ownerId: string) => Promise<void> = whenOwnerGone,
): Promise<void> {
  const all = await listQueued();
  const alive = await Promise.all(all.map((row) => (row.ownerId ? ownerAlive(row.ownerId) : false)));
  offerUnsent(all.filter((_, i) => !alive[i]));
  for (const row of all.filter((_, i) => alive[i])) {
    const { ownerId, sessionId } = row;
    if (!ownerId) continue;
    void ownerGone(ownerId)
      .then(() => getQueued(sessionId))
      .then((left) => {
        if (left?.ownerId === ownerId) offerUnsent([left]);
      })
      .catch(() => {});
  }
}

function offerUnsent(rows: readonly QueuedRow[]): void {
  if (rows.length === 0) return;
  useQueueStore.setState((s) => {
    const queued = { ...s.queued };
    for (const row of rows) {
      queued[row.sessionId] ??= { text: row.text, queuedAt: row.queuedAt, state: "unsent", stored: true };
    }
    return { queued };
  });
}

/**
 * Sends every waiting message whose chat is idle, now and whenever the stores change. Returns the
 * stop function. A message that cannot be stored becomes "unsent" (Send / Discard).
 */
export function startQueueFlusher(send: QueuedSender): () => void {
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // Out of the store's listener: the send itself changes these stores.
    queueMicrotask(() => {
      scheduled = false;
      flushIdle(send);
    });
  };
  const stopActivity = onActivityChange(schedule);
  const stopQueue = useQueueStore.subscribe(schedule);
  schedule();
  return () => {
    stopActivity();
    stopQueue();
  };
}

function flushIdle(send: QueuedSender): void {
  for (const [id, message] of Object.entries(useQueueStore.getState().queued)) {
    const sessionId = id as SessionId;
    if (message.state === "waiting" && chatActivity(sessionId).idle) void flush(sessionId, message, send);
  }
}

async function flush(sessionId: SessionId, message: QueuedMessage, send: QueuedSender): Promise<void> {
  // Out of the queue first (synchronously), so it is sent once however often the stores change; and
  // the chat held from the same instant, so a message the user sends meanwhile queues behind this one
  // instead of forking from the same leaf.
  setQueued(sessionId, () => undefined);
  const release = holdSession(sessionId);
  try {
    await inOrder(() => deleteQueued(sessionId));
    // false: the chat was deleted meanwhile, and its queued message with it.
    await send(sessionId, message.text);
    return;
  } catch (e) {
    reportActionError("Your queued message could not be sent", e);
  } finally {
    release();
  }
  // Kept for Send or Discard, ahead of anything queued meanwhile (and stored again: the delete may have gone through).
  const now = useQueueStore.getState().queued[sessionId];
  const kept: QueuedMessage = {
    ...message,
    text: now ? `${message.text}\n\n${now.text}` : message.text,
    state: "unsent",
  };
  setQueued(sessionId, () => kept);
  await inOrder(() => putQueued({ sessionId, text: kept.text, queuedAt: kept.queuedAt, ownerId: pageOwnerId() })).catch(
    () => {},
  );
}

/**
 * The table's writes run one after another, in the order the store changed: a delete issued
 * after an append (a message sent the moment it was queued) must not overtake it and leave a
 * row behind, which would come back as "not sent" after a reload.
 */
let writes: Promise<unknown> = Promise.resolve();
function inOrder<T>(write: () => Promise<T>): Promise<T> {
  const next = writes.then(write, write);
  writes = next.catch(() => {});
  return next;
}

function setQueued(sessionId: SessionId, next: (before: QueuedMessage | undefined) => QueuedMessage | undefined): void {
  useQueueStore.setState((s) => {
    const { [sessionId]: before, ...rest } = s.queued;
    const value = next(before);
    return { queued: value ? { ...rest, [sessionId]: value } : rest };
  });
}
