// @vitest-environment jsdom
import "fake-indexeddb/auto";
import { renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionId } from "../core/session/ids";
import { appendEntries } from "../db/entries";
import { createSession, renameSession } from "../db/sessions";
import { assistantMessage, closeDb, freshDatabase, makeSession, userMessage } from "../db/testing/database";
import { firstTail, readFirstTail, readTail, sameAsFirst } from "./first-tail";
import { type SessionView, useSessionView } from "./hooks";

beforeEach(freshDatabase);
afterEach(async () => {
  // Lets go of any read at start a test left unused.
  sameAsFirst({ kind: "tail", forId: "none" as SessionId, session: undefined, entries: [], whole: true });
  closeDb();
});

async function twoMessageChat() {
  const s = makeSession({ title: "Two" });
  const u = userMessage(s.id, null, "hello", 2_000);
  const a = assistantMessage(s.id, u.id, "hi there", 3_000);
  await createSession({ ...s, leafId: a.id }, [u, a]);
  return { id: s.id as SessionId, u, a };
}

/** Every view the hook rendered, in order. */
function renderView(sessionId: SessionId) {
  const views: SessionView[] = [];
  const hook = renderHook(() => {
    const view = useSessionView(sessionId);
    views.push(view);
    return view;
  });
  return { views, hook };
}

describe("the open chat's end, read at start", () => {
  it("is drawn by the first render, then the whole tree is read", async () => {
    const chat = await twoMessageChat();
    await readFirstTail(chat.id);
    const { views, hook } = renderView(chat.id);
    expect(views[0]?.loaded).toBe(true);
    expect(views[0]?.complete).toBe(false);
    expect(views[0]?.path.map((e) => e.id)).toEqual([chat.u.id, chat.a.id]);
    await waitFor(() => expect(hook.result.current.complete).toBe(true));
    expect(hook.result.current.path.map((e) => e.id)).toEqual([chat.u.id, chat.a.id]);
  });

  it("is what the live read answers while the chat reads the same, so nothing renders again", async () => {
    const chat = await twoMessageChat();
    await readFirstTail(chat.id);
    const start = firstTail(chat.id);
    expect(sameAsFirst(await readTail(chat.id))).toBe(start);
    // Served once: a later read is the live read's own.
    const again = await readTail(chat.id);
    expect(sameAsFirst(again)).toBe(again);
  });

  it("is not what the live read answers once the chat changed (a message written, a renamed chat)", async () => {
    const chat = await twoMessageChat();
    await readFirstTail(chat.id);
    const u2 = userMessage(chat.id, chat.a.id, "more", 4_000);
    await appendEntries(chat.id, [u2], { kind: "move", to: u2.id });
    const moved = await readTail(chat.id);
    expect(sameAsFirst(moved)).toBe(moved);

    await readFirstTail(chat.id);
    await renameSession(chat.id, "Renamed");
    const renamed = await readTail(chat.id);
    expect(sameAsFirst(renamed)).toBe(renamed);
  });

  it("serves only the chat it was read for; without it the first render is still loading", async () => {
    const chat = await twoMessageChat();
    const other = await twoMessageChat();
    await readFirstTail(chat.id);
    expect(firstTail(other.id)).toBeUndefined();
    const { views, hook } = renderView(other.id);
    expect(views[0]?.loaded).toBe(false);
    await waitFor(() => expect(hook.result.current.path.map((e) => e.id)).toEqual([other.u.id, other.a.id]));
  });

  it("gives way to the live read when the chat changed in between (a reply written meanwhile)", async () => {
    const chat = await twoMessageChat();
    await readFirstTail(chat.id);
    const start = firstTail(chat.id);
    const u2 = userMessage(chat.id, chat.a.id, "more", 4_000);
    await appendEntries(chat.id, [u2], { kind: "move", to: u2.id });
    const { views, hook } = renderView(chat.id);
    expect(views[0]?.path).toBe(start?.entries);
    await waitFor(() => expect(hook.result.current.path.map((e) => e.id)).toEqual([chat.u.id, chat.a.id, u2.id]));
  });

  it("reads nothing when no chat is open", async () => {
    await readFirstTail(null);
    expect(firstTail(null)).toBeUndefined();
  });
});
