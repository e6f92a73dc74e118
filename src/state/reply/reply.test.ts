import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageEntry, Session } from "../../core/session/entries";
import { newEntryId, newSessionId, type SessionId } from "../../core/session/ids";
import { appendEntries, getEntries, moveLeaf } from "../../db/entries";
import { listCheckpoints } from "../../db/reply-checkpoints";
import { createSession, getSession } from "../../db/sessions";
import { fillDiskForReplies, freshDatabase } from "../../db/testing/database";
import type { StreamEvent, StreamFn, StreamRequest } from "../../providers/types";
import { emptyPartial } from "../../worker/testing/streams";
import { chatActivity } from "../activity/chat-activity";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { runMaintenance } from "../maintenance/runner";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { CHECKPOINT_MS } from "./checkpoint-pace";
import { runReply } from "./reply";
import { clearPendingReply, showPendingReply, stopReply } from "./reply-lane";
import { useStreamStore } from "./stream-store";
import { STORAGE_FULL_TEXT, saveUnsaved, whenSaved } from "./unsaved";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A scripted provider: yields text chunks with a delay, honours the abort signal like real adapters. */
function scripted(
  chunks: string[],
  opts: { delayMs?: number; fail?: { afterChunks: number; kind: "overloaded" } } = {},
) {
  const requests: StreamRequest[] = [];
  const fn: StreamFn = async function* (req) {
    requests.push(req);
    const partial = emptyPartial(req);
    yield { type: "start", partial };
    let text = "";
    for (const [i, chunk] of chunks.entries()) {
      if (opts.fail && i === opts.fail.afterChunks) {
        yield {
          type: "error",
          partial: { ...partial, stopReason: "error" },
          error: { kind: "overloaded", message: "Overloaded" },
        };
        return;
      }
      await sleep(opts.delayMs ?? 0);
      if (req.signal.aborted) {
        yield {
          type: "error",
          partial: { ...partial, stopReason: "aborted" },
          error: { kind: "aborted", message: "Stopped" },
        };
        return;
      }
      text += chunk;
      partial.content = [{ type: "text", text }];
      yield { type: "text_delta", delta: chunk, partial } satisfies StreamEvent;
    }
    partial.usage = { input: 10, output: 3 };
    partial.stopReason = "end";
    yield { type: "done", partial };
  };
  return { fn, requests };
}

async function sessionWithQuestion(): Promise<{ sessionId: SessionId; userId: MessageEntry["id"] }> {
  const sessionId = newSessionId();
  const userId = newEntryId();
  const session: Session = {
    id: sessionId,
    title: "t",
    titleSource: "auto",
    createdAt: 1,
    updatedAt: 1,
    leafId: userId,
  };
  const user: MessageEntry = {
    id: userId,
    sessionId,
    parentId: null,
    createdAt: 1,
    type: "message",
    role: "user",
    content: [{ type: "text", text: "Hello?" }],
    status: "complete",
  };
  await createSession(session, [user]);
  return { sessionId, userId };
}

const withKeys = () =>
  useSettingsStore.setState({
    settings: {
      ...DEFAULT_SETTINGS,
      providers: DEFAULT_SETTINGS.providers.map((p) => ({ ...p, apiKey: `key-${p.id}` })),
    },
    loaded: true,
  });

const deps = (stream: StreamFn) => ({ stream, now: () => Date.now() });

beforeEach(() => {
  freshDatabase();
  resetStores();
  withKeys();
});
afterEach(() => resetStores());

describe("runReply", () => {
  it("writes the finished reply with model, usage and stop reason, moves the leaf, leaves no checkpoint", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const { fn, requests } = scripted(["Hi ", "there"]);
    await runReply(sessionId, userId, {}, deps(fn));
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === userId) as MessageEntry;
    expect(reply).toMatchObject({
      role: "assistant",
      status: "complete",
      content: [{ type: "text", text: "Hi there" }],
      provider: "anthropic",
      model: DEFAULT_SETTINGS.defaultModel.modelId,
      usage: { input: 10, output: 3 },
      stopReason: "end",
    });
    expect((await getSession(sessionId))?.leafId).toBe(reply.id);
    expect(await listCheckpoints()).toEqual([]);
    expect(requests[0]?.context.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Hello?" }] }]);
    expect(useStreamStore.getState().replies[sessionId]).toBeUndefined();
  });

  it("Stop keeps what arrived and marks it stopped", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const { fn } = scripted(["one ", "two ", "three ", "four"], { delayMs: 30 });
    const done = runReply(sessionId, userId, {}, deps(fn));
    await sleep(80);
    stopReply(sessionId);
    await done;
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === userId) as MessageEntry;
    expect(reply.status).toBe("stopped");
    expect(reply.stopReason).toBe("aborted");
    const text = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text.startsWith("one ")).toBe(true);
    expect(text).not.toContain("four");
  });

  it("a provider error mid-stream keeps the partial reply and records the error", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const { fn } = scripted(["partial ", "answer ", "lost"], { fail: { afterChunks: 2, kind: "overloaded" } });
    await runReply(sessionId, userId, {}, deps(fn));
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === userId) as MessageEntry;
    expect(reply).toMatchObject({
      status: "error",
      error: { kind: "overloaded" },
      content: [{ type: "text", text: "partial answer " }],
    });
  });

  it("with no API key, writes an error reply that says so and never calls the provider", async () => {
    useSettingsStore.setState({ settings: DEFAULT_SETTINGS, loaded: true });
    const { sessionId, userId } = await sessionWithQuestion();
    const { fn, requests } = scripted(["never"]);
    await runReply(sessionId, userId, {}, deps(fn));
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === userId) as MessageEntry;
    expect(requests).toHaveLength(0);
    expect(reply).toMatchObject({ status: "error", error: { kind: "auth" }, content: [] });
    expect(reply.error?.message).toMatch(/Settings/);
  });

  it("checkpoints the reply in flight to the `drafts` table while it streams", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const chunks = Array.from({ length: 12 }, (_, i) => `c${i} `);
    const { fn } = scripted(chunks, { delayMs: 100 });
    const done = runReply(sessionId, userId, {}, deps(fn));
    await sleep(CHECKPOINT_MS * 2 + 150);
    const [checkpoint] = await listCheckpoints();
    expect(checkpoint?.sessionId).toBe(sessionId);
    const saved = checkpoint?.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";
    expect(saved.startsWith("c0 c1 ")).toBe(true);
    await done;
    expect(await listCheckpoints()).toEqual([]);
  });

  it("does not move the leaf when the user moved elsewhere while the reply streamed", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const other: MessageEntry = {
      id: newEntryId(),
      sessionId,
      parentId: null,
      createdAt: 2,
      type: "message",
      role: "user",
      content: [{ type: "text", text: "another root" }],
      status: "complete",
    };
    await appendEntries(sessionId, [other], { kind: "keep" });
    const { fn } = scripted(["slow ", "reply"], { delayMs: 40 });
    const done = runReply(sessionId, userId, {}, deps(fn));
    await sleep(20);
    await moveLeaf(sessionId, other.id);
    await done;
    expect((await getSession(sessionId))?.leafId).toBe(other.id);
    expect((await getEntries(sessionId)).some((e) => e.parentId === userId)).toBe(true);
  });
});

describe("the reply shown at once", () => {
  it("the placeholder shows before anything is read, and the reply takes it over (same id)", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    showPendingReply(sessionId, userId);
    const pending = useStreamStore.getState().replies[sessionId];
    expect(pending).toMatchObject({ parentId: userId, phase: "preparing" });
    const { fn } = scripted(["Hi"]);
    const result = await runReply(sessionId, userId, {}, deps(fn));
    expect(result?.entry.id).toBe(pending?.checkpointId);
    expect(useStreamStore.getState().replies[sessionId]).toBeUndefined();
  });

  it("Stop while the reply is being prepared sends nothing and writes nothing", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    showPendingReply(sessionId, userId);
    stopReply(sessionId);
    const { fn, requests } = scripted(["never"]);
    expect(await runReply(sessionId, userId, {}, deps(fn))).toBeNull();
    clearPendingReply(sessionId);
    expect(requests).toHaveLength(0);
    expect(await getEntries(sessionId)).toHaveLength(1);
    expect(useStreamStore.getState().replies[sessionId]).toBeUndefined();
  });
});

describe("a Retry that fails before any content again", () => {
  it("writes no second empty error version: the failed reply stays the leaf, the new reason is a notice", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const { fn } = scripted(["x"], { fail: { afterChunks: 0, kind: "overloaded" } });
    const first = await runReply(sessionId, userId, {}, deps(fn));
    const failed = first?.entry as MessageEntry;
    expect(failed).toMatchObject({ status: "error", content: [] });
    await moveLeaf(sessionId, userId);
    const again = await runReply(sessionId, userId, { retryOf: failed }, deps(fn));
    expect(again?.entry.id).toBe(failed.id);
    expect(await getEntries(sessionId)).toHaveLength(2);
    expect(await listCheckpoints()).toEqual([]);
    expect((await getSession(sessionId))?.leafId).toBe(failed.id);
    expect(useUiStore.getState().notices.at(-1)?.text).toMatch(/^Retry failed: /);
  });
});

describe("a reply the storage refuses (disk full)", () => {
  it("stays on screen as unsaved, in full, and is written by a later attempt", async () => {
    const { sessionId, userId } = await sessionWithQuestion();
    const disk = await fillDiskForReplies();
    const { fn } = scripted(["All ", "of ", "it"]);
    const result = await runReply(sessionId, userId, {}, deps(fn));
    expect(result?.entry.content).toEqual([{ type: "text", text: "All of it" }]);
    expect(useStreamStore.getState().replies[sessionId]).toMatchObject({
      phase: "unsaved",
      saveError: STORAGE_FULL_TEXT,
      partial: { content: [{ type: "text", text: "All of it" }] },
    });
    expect(await saveUnsaved(sessionId)).toBe(false);
    // Not over until saved: no maintenance may fold the path without it (and move the leaf past it).
    expect(chatActivity(sessionId).replying).toBe(true);
    expect(
      await runMaintenance(sessionId, { kind: "compaction", reason: "threshold" }, async () => ({ kind: "done" })),
    ).toEqual({
      kind: "busy",
    });
    disk.free();
    expect(await saveUnsaved(sessionId)).toBe(true);
    await whenSaved(sessionId);
    expect(useStreamStore.getState().replies[sessionId]).toBeUndefined();
    const saved = (await getEntries(sessionId)).find((e) => e.parentId === userId) as MessageEntry;
    expect(saved.content).toEqual([{ type: "text", text: "All of it" }]);
    expect((await getSession(sessionId))?.leafId).toBe(saved.id);
    expect(chatActivity(sessionId).replying).toBe(false);
  });
});
