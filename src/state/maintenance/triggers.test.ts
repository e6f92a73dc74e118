/**
 * The automatic triggers around a reply (DESIGN §4.6): threshold (compaction or the "handoff"
 * strategy), output length, overflow recovery with one retry, preflight, and "disabled" / paused.
 * Everything is injected: the chat's provider stream and clock, the maintenance runner's clock and
 * worker (a scripted summarizer), the context measure; the database is fake-indexeddb.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildContext } from "../../core/session/build-context";
import type { Entry, MessageError } from "../../core/session/entries";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { getEntries } from "../../db/entries";
import { getSession, listSessions } from "../../db/sessions";
import { freshDatabase } from "../../db/testing/database";
import type { StreamRequest } from "../../providers/types";
import { scriptedWorker } from "../../worker/testing/streams";
import { resetStores } from "../app/store-registry";
import { contextBuilds } from "../context/context-builds";
import type { ChatTarget } from "../models/chat-target";
import type { Settings } from "../settings/settings-model";
import { chatModel, chatWithQuestion, compactions, type Turn, thresholdSettings } from "../testing/conversation";
import { useMaintenanceStore } from "./maintenance-store";
import type { MaintenanceOp } from "./operation";
import { cancelMaintenance } from "./runner";
import { type MaintainDeps, replyAndMaintain } from "./triggers";

const MODEL = { providerId: "openai", modelId: "gpt-4o" } as const;
const SUMMARY = "## Goal\nKeep going.";
const REPLY_AT = 50_000;
const MAINTENANCE_AT = 60_000;

/** The context measure: always `tokens` (exact), recording that it was asked. */
function measureOf(tokens: number) {
  const calls: number[] = [];
  const measure = async (path: readonly Entry[], _target: ChatTarget) => {
    calls.push(path.length);
    return { tokens, exact: true };
  };
  return { measure, calls };
}

/** Every maintenance operation that took the lock, as it started. */
function recordOps(): MaintenanceOp[] {
  const ops: MaintenanceOp[] = [];
  useMaintenanceStore.subscribe((s, prev) => {
    if (s.op && !prev.op) ops.push(s.op);
  });
  return ops;
}

function setup(
  turns: Turn[],
  tokens: number,
): { deps: MaintainDeps; chat: StreamRequest[]; summarizer: StreamRequest[]; measured: number[] } {
  const model = chatModel(turns);
  const { worker, requests } = scriptedWorker([{ delta: SUMMARY }, "done"]);
  const { measure, calls } = measureOf(tokens);
  return {
    deps: {
      reply: { stream: model.stream, now: () => REPLY_AT },
      maintenance: { worker, now: () => MAINTENANCE_AT },
      measure,
    },
    chat: model.requests,
    summarizer: requests,
    measured: calls,
  };
}

/** A threshold the upper bound cannot clear, so the (injected) measure decides. */
const settings = (patch: Partial<Settings> = {}, compaction: Partial<Settings["compaction"]> = {}) =>
  thresholdSettings(MODEL, patch, compaction);

beforeEach(() => {
  freshDatabase();
  resetStores();
  settings();
});
afterEach(() => resetStores());

describe("replyAndMaintain: the automatic triggers", () => {
  it("threshold: a reply that takes the context over the threshold is followed by a compaction, at the injected clock", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    const t = setup([{ text: "Here you go." }], 10_000);
    const ops = recordOps();
    await replyAndMaintain(sessionId, question.id, {}, t.deps);

    expect(t.chat).toHaveLength(1);
    expect(t.measured).toHaveLength(1);
    expect(ops.map((o) => [o.kind, o.reason, o.automatic, o.startedAt])).toEqual([
      ["compaction", "threshold", true, MAINTENANCE_AT],
    ]);
    expect(t.summarizer.length).toBeGreaterThan(0);
    const [card] = await compactions(sessionId);
    expect(card).toMatchObject({ reason: "threshold", createdAt: MAINTENANCE_AT });
    const reply = (await getEntries(sessionId)).find((e) => e.id === card?.parentId);
    expect(reply).toMatchObject({ role: "assistant", createdAt: REPLY_AT });
    expect((await getSession(sessionId))?.leafId).toBe(card?.id);
  });

  it("'Compact above (tokens)': on a 1M-token window, a compaction starts past N tokens, not at 850k", async () => {
    // N small enough that the path's upper bound cannot clear it: the (injected) measure decides.
    const N = 40;
    const big = { modelOverrides: { "gpt-4o": { contextWindow: 1_000_000 } } };
    settings(big, { thresholdTokens: 0, compactAboveTokens: N });
    const under = await chatWithQuestion(MODEL);
    const t1 = setup([{ text: "Short." }], N);
    await replyAndMaintain(under.sessionId, under.question.id, {}, t1.deps);
    expect(await compactions(under.sessionId)).toEqual([]);

    const over = await chatWithQuestion(MODEL);
    const t2 = setup([{ text: "Here you go." }], N + 1);
    await replyAndMaintain(over.sessionId, over.question.id, {}, t2.deps);
    expect(await compactions(over.sessionId)).toMatchObject([{ reason: "threshold" }]);

    // Without the cap the same context is far under the window's own threshold.
    settings(big, { thresholdTokens: 0, compactAboveTokens: 0 });
    const uncapped = await chatWithQuestion(MODEL);
    const t3 = setup([{ text: "Fine." }], N + 1);
    await replyAndMaintain(uncapped.sessionId, uncapped.question.id, {}, t3.deps);
    expect(await compactions(uncapped.sessionId)).toEqual([]);
  });

  it("under the threshold: nothing runs", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    const t = setup([{ text: "Short." }], 10);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect(t.summarizer).toHaveLength(0);
    expect(await compactions(sessionId)).toEqual([]);
  });

  it("'Automatic compaction' off, or paused for this chat: nothing runs", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    settings({}, { enabled: false });
    const off = setup([{ text: "One." }], 10_000);
    await replyAndMaintain(sessionId, question.id, {}, off.deps);
    expect(off.summarizer).toHaveLength(0);

    settings();
    useMaintenanceStore.setState({ paused: { [sessionId]: "paused" } });
    const paused = setup([{ text: "Two." }], 10_000);
    await replyAndMaintain(sessionId, question.id, {}, paused.deps);
    expect(paused.summarizer).toHaveLength(0);
    expect(await compactions(sessionId)).toEqual([]);
  });

  it("the 'handoff' strategy: over the threshold a new session starts instead of a compaction", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    settings({ autoStrategy: "handoff" });
    const t = setup([{ text: "Done." }], 10_000);
    const ops = recordOps();
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect(ops.map((o) => [o.kind, o.reason, o.automatic])).toEqual([["handoff", "threshold", true]]);
    expect(await compactions(sessionId)).toEqual([]);
    const sessions = await listSessions();
    expect(sessions).toHaveLength(2);
    const created = sessions.find((s) => s.id !== sessionId);
    expect(created?.createdAt).toBe(MAINTENANCE_AT);
  });

  it("output length: a reply cut off near the limit is followed by a 'length' compaction (never a handoff)", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    settings({ autoStrategy: "handoff" });
    const t = setup([{ text: "cut", stop: "length" }], 10_000);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    const [card] = await compactions(sessionId);
    expect(card?.reason).toBe("length");
    expect(await listSessions()).toHaveLength(1);
  });

  it("overflow: the provider's 'too long' → compact up to the question, then retry that request once", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    const overflow: MessageError = { kind: "context_overflow", message: "prompt is too long" };
    const t = setup([{ error: overflow }, { text: "Answer after compaction." }], 10);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);

    expect(t.chat).toHaveLength(2);
    const [card] = await compactions(sessionId);
    expect(card).toMatchObject({ reason: "overflow", parentId: question.id });
    const entries = await getEntries(sessionId);
    const retried = entries.find((e) => e.parentId === card?.id);
    expect(retried).toMatchObject({ role: "assistant", status: "complete" });
    expect((await getSession(sessionId))?.leafId).toBe(retried?.id);
    // The failed reply stays, as another version of the answer to the question.
    expect(entries.filter((e) => e.parentId === question.id && e.type === "message")).toHaveLength(1);
  });

  it("overflow again after the retry: an error the user sees, never a second round", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    const overflow: MessageError = { kind: "context_overflow", message: "prompt is too long" };
    const t = setup([{ error: overflow }, { error: overflow }, { text: "never asked" }], 10);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect(t.chat).toHaveLength(2);
    expect(await compactions(sessionId)).toHaveLength(1);
  });

  it("preflight: a request that would not fit the window is compacted first, and the reply follows the compaction", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    // A tiny window, so the upper bound cannot clear it and the measure decides.
    settings(
      { modelOverrides: { [MODEL.modelId]: { contextWindow: 2_000, maxOutput: 1_000 } } },
      { thresholdTokens: 0, reserveTokens: 200 },
    );
    const t = setup([{ text: "Fits now." }], 10_000);
    const ops = recordOps();
    await replyAndMaintain(sessionId, question.id, { preflight: true }, t.deps);
    expect(ops[0]).toMatchObject({ kind: "compaction", reason: "preflight" });
    const [card] = await compactions(sessionId);
    expect(card).toMatchObject({ reason: "preflight", parentId: question.id, createdAt: MAINTENANCE_AT });
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === card?.id);
    expect(reply).toMatchObject({ role: "assistant", createdAt: REPLY_AT });
  });

  it("preflight: a count that cannot be made (worker gone) does not leave the message unanswered", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    settings(
      { modelOverrides: { [MODEL.modelId]: { contextWindow: 2_000, maxOutput: 1_000 } } },
      { thresholdTokens: 0, reserveTokens: 200 },
    );
    const t = setup([{ text: "Answered anyway." }], 10_000);
    const ops = recordOps();
    await replyAndMaintain(
      sessionId,
      question.id,
      { preflight: true },
      { ...t.deps, measure: () => Promise.reject(new Error("The background worker stopped unexpectedly.")) },
    );
    expect(ops).toEqual([]);
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === question.id && e.type === "message");
    expect(reply).toMatchObject({ role: "assistant", status: "complete" });
    expect(t.chat).toHaveLength(1);
  });
});

describe("preflight far over the window: the compaction's bar is up before the count", () => {
  /** A measure that answers `tokens` only when released; `asked` resolves when it is called. */
  function heldMeasure(tokens: number) {
    let release = () => {};
    let asked = () => {};
    const wasAsked = new Promise<void>((r) => {
      asked = r;
    });
    const released = new Promise<void>((r) => {
      release = r;
    });
    const measure = async () => {
      asked();
      await released;
      return { tokens, exact: true };
    };
    return { measure, release, wasAsked };
  }
  // Room 200 tokens: the path's upper bound is over it even divided by the generous bytes per token.
  const tinyWindow = () =>
    settings(
      { modelOverrides: { [MODEL.modelId]: { contextWindow: 1_200, maxOutput: 1_000 } } },
      { thresholdTokens: 0, reserveTokens: 200 },
    );

  it("the lock is taken (counting) while the count runs, and the compaction runs under that same lock", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    tinyWindow();
    const t = setup([{ text: "Fits now." }], 0);
    const held = heldMeasure(10_000);
    const ops = recordOps();
    const done = replyAndMaintain(sessionId, question.id, { preflight: true }, { ...t.deps, measure: held.measure });
    await held.wasAsked;
    expect(useMaintenanceStore.getState().op).toMatchObject({
      kind: "compaction",
      reason: "preflight",
      automatic: true,
      progress: { phase: "counting" },
    });
    expect(t.summarizer).toHaveLength(0);
    held.release();
    await done;
    // One operation from the bar's first moment to the card: never released and taken again. (The
    // measure stays over the threshold, so a threshold compaction follows the reply: not counted here.)
    expect(ops.filter((op) => op.kind === "compaction" && op.reason === "preflight")).toHaveLength(1);
    expect((await compactions(sessionId)).filter((c) => c.reason === "preflight")).toHaveLength(1);
    expect(useMaintenanceStore.getState().op).toBeNull();
    expect(t.chat).toHaveLength(1);
  });

  it("the count says it fits after all: the bar goes, nothing is compacted, the reply goes out", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    tinyWindow();
    const t = setup([{ text: "Answered." }], 0);
    const held = heldMeasure(100);
    const done = replyAndMaintain(sessionId, question.id, { preflight: true }, { ...t.deps, measure: held.measure });
    await held.wasAsked;
    expect(useMaintenanceStore.getState().op?.kind).toBe("compaction");
    held.release();
    await done;
    expect(useMaintenanceStore.getState().op).toBeNull();
    expect(await compactions(sessionId)).toHaveLength(0);
    expect(t.chat).toHaveLength(1);
  });

  it("Cancel while counting: nothing is compacted, the lock is free, the message is still answered", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    tinyWindow();
    const t = setup([{ text: "Answered uncompacted." }], 0);
    const held = heldMeasure(10_000);
    const done = replyAndMaintain(sessionId, question.id, { preflight: true }, { ...t.deps, measure: held.measure });
    await held.wasAsked;
    cancelMaintenance();
    held.release();
    await done;
    expect(useMaintenanceStore.getState().op).toBeNull();
    expect((await compactions(sessionId)).filter((c) => c.reason === "preflight")).toHaveLength(0);
    const reply = (await getEntries(sessionId)).find((e) => e.parentId === question.id && e.type === "message");
    expect(reply).toMatchObject({ role: "assistant", status: "complete" });
  });
});

describe("one send builds its context once (issue 23)", () => {
  it("the preflight, the request and the threshold check after the reply share one build, counted or not", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    // The bound clears neither the window's room nor the threshold: both checks count (the injected measure).
    settings({ modelOverrides: { [MODEL.modelId]: { contextWindow: 1_200, maxOutput: 1_000 } } });
    const t = setup([{ text: "Answered." }], 10);
    const before = contextBuilds();
    await replyAndMaintain(sessionId, question.id, { preflight: true }, t.deps);
    expect(t.measured).toHaveLength(2);
    expect(contextBuilds() - before).toBe(1);
    // What was sent is that build: the path's context for the chat's provider.
    const path = pathToRoot(buildTreeIndex(await getEntries(sessionId)), question.id);
    expect(t.chat[0]?.context).toEqual(
      buildContext(path, { systemPrompt: "", targetApi: "openai-responses", targetProviderId: "openai" }),
    );
  });

  it("a far-below-threshold send builds once and counts nothing", async () => {
    const { sessionId, question } = await chatWithQuestion(MODEL);
    settings({}, { thresholdTokens: 1_000_000 });
    const t = setup([{ text: "Answered." }], 10);
    const before = contextBuilds();
    await replyAndMaintain(sessionId, question.id, { preflight: true }, t.deps);
    expect(t.measured).toHaveLength(0);
    expect(contextBuilds() - before).toBe(1);
  });
});
