import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionId } from "../../core/session/ids";
import { newSessionId } from "../../core/session/ids";
import { getQueued, listQueued, takeQueued } from "../../db/queued";
import { freshDatabase } from "../../db/testing/database";
import { holdSession, useHoldStore } from "../activity/holds";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { beginMaintenance, endMaintenance } from "../maintenance/lock";
import { useQueueStore } from "./queue-store";
import {
  discardQueued,
  loadQueued,
  moveQueued,
  queueMessage,
  sendUnsent,
  shouldQueue,
  startQueueFlusher,
} from "./queued-message";

/** A sender that records what it was asked to send (and can refuse). */
function recorder(ok = true) {
  const sent: Array<{ sessionId: SessionId; text: string }> = [];
  const send = async (sessionId: SessionId, text: string) => {
    sent.push({ sessionId, text });
    return ok;
  };
  return { sent, send };
}

/** Lets the flusher's microtask and the db writes after it run. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
};

let stop: (() => void) | null = null;
beforeEach(() => {
  freshDatabase();
  resetStores();
});
afterEach(() => {
  stop?.();
  stop = null;
  resetStores();
});

describe("queued messages", () => {
  it("a message sent while maintenance runs on its chat waits, is stored, and goes to that chat when it ends — whichever chat is on screen", async () => {
    const a = newSessionId();
    const b = newSessionId();
    const { sent, send } = recorder();
    stop = startQueueFlusher(send);
    const ac = beginMaintenance(a, { kind: "compaction", reason: "threshold" }, 1);
    expect(shouldQueue(a)).toBe(true);
    expect(shouldQueue(b)).toBe(false);
    await queueMessage(a, "first", 10);
    await queueMessage(a, "second", 20);
    expect(useQueueStore.getState().queued[a]).toEqual({
      text: "first\n\nsecond",
      queuedAt: 10,
      state: "waiting",
    });
    expect((await getQueued(a))?.text).toBe("first\n\nsecond");
    await settle();
    expect(sent).toEqual([]);

    // The user opens another chat; then the maintenance ends.
    useUiStore.setState({ sessionId: b });
    if (ac) endMaintenance(ac);
    await settle();
    expect(sent).toEqual([{ sessionId: a, text: "first\n\nsecond" }]);
    expect(useQueueStore.getState().queued).toEqual({});
    expect(await listQueued()).toEqual([]);
  });

  it("waits for the whole reply with its maintenance (a held chat), not just the lock", async () => {
    const a = newSessionId();
    const { sent, send } = recorder();
    stop = startQueueFlusher(send);
    const release = holdSession(a);
    const ac = beginMaintenance(a, { kind: "compaction", reason: "overflow" }, 1);
    await queueMessage(a, "after the retry", 10);
    if (ac) endMaintenance(ac);
    await settle();
    // The lock is free, but the retried request of overflow recovery is still to come.
    expect(sent).toEqual([]);
    release();
    release();
    await settle();
    expect(sent).toEqual([{ sessionId: a, text: "after the retry" }]);
    expect(useHoldStore.getState().busy).toEqual({});
  });

  it("after a reload a stored message is unsent: never sent by itself; Send sends it, Discard drops it", async () => {
    const a = newSessionId();
    const b = newSessionId();
    await queueMessage(a, "from before the reload", 10);
    await queueMessage(b, "another chat's", 11);
    resetStores();

    const { sent, send } = recorder();
    await loadQueued(async () => false);
    stop = startQueueFlusher(send);
    await settle();
    expect(sent).toEqual([]);
    expect(useQueueStore.getState().queued[a]).toEqual({
      text: "from before the reload",
      queuedAt: 10,
      state: "unsent",
      stored: true,
    });

    await sendUnsent(a);
    await settle();
    expect(sent).toEqual([{ sessionId: a, text: "from before the reload" }]);
    expect(await getQueued(a)).toBeUndefined();

    const dropped = await discardQueued(b);
    expect(dropped?.text).toBe("another chat's");
    expect(await listQueued()).toEqual([]);
    expect(useQueueStore.getState().queued).toEqual({});
  });

  it("another open tab's waiting message is not offered here; one two tabs offer is sent by one only", async () => {
    const mine = newSessionId();
    const theirs = newSessionId();
    await queueMessage(mine, "orphaned", 10);
    await queueMessage(theirs, "the other tab sends this", 11);
    expect((await getQueued(theirs))?.ownerId).toBeTruthy();
    resetStores();

    const { sent, send } = recorder();
    // Rows whose page is still open are that page's to send — until that page goes away unsent.
    let gone: () => void = () => {};
    const whenGone = new Promise<void>((resolve) => {
      gone = resolve;
    });
    await loadQueued(
      async () => true,
      () => whenGone,
    );
    expect(useQueueStore.getState().queued).toEqual({});
    gone();
    await vi.waitFor(() => expect(Object.keys(useQueueStore.getState().queued).sort()).toEqual([mine, theirs].sort()));
    resetStores();

    // Both tabs found `mine` as unsent; the other one sent it first (it took the row).
    await loadQueued(async () => false);
    stop = startQueueFlusher(send);
    await takeQueued(mine);
    await sendUnsent(mine);
    await settle();
    expect(sent).toEqual([]);
    expect(useQueueStore.getState().queued[mine]).toBeUndefined();
  });

  it("a message that could not be stored in its chat is kept as unsent (in memory and stored); one whose chat is gone goes with it", async () => {
    const a = newSessionId();
    stop = startQueueFlusher(async () => {
      throw new Error("QuotaExceededError");
    });
    await queueMessage(a, "no room", 10);
    await settle();
    expect(useQueueStore.getState().queued[a]?.state).toBe("unsent");
    expect((await getQueued(a))?.text).toBe("no room");
    stop();

    const gone = newSessionId();
    const { sent, send } = recorder(false);
    stop = startQueueFlusher(send);
    await queueMessage(gone, "to a deleted chat", 10);
    await settle();
    expect(sent).toHaveLength(1);
    expect(useQueueStore.getState().queued[gone]).toBeUndefined();
    expect(await getQueued(gone)).toBeUndefined();
  });

  it("moves to another chat (a handoff's new session) as unsent", async () => {
    const a = newSessionId();
    const b = newSessionId();
    await queueMessage(a, "for the new session", 10);
    const message = useQueueStore.getState().queued[a];
    if (message) await moveQueued(a, b, message);
    expect(useQueueStore.getState().queued).toEqual({
      [b]: { text: "for the new session", queuedAt: 10, state: "unsent" },
    });
    expect((await listQueued()).map((r) => r.sessionId)).toEqual([b]);
  });
});
