/**
 * Compaction inside a tool loop (issue 28 item 7), through `replyAndMaintain` as a send runs it: a
 * threshold compaction between two steps after which the loop goes on by itself (auto-continue), the
 * same with auto-continue off (the loop ends on the compaction, Continue goes on), an overflow mid-loop
 * compacted and that step retried once, and the request after a compaction with every tool call
 * answered. The chat model is scripted (its calls name a tool nobody offers: the loop answers with an
 * error result and goes on); the summarizer runs in the real worker API over a scripted stream.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LlmContext } from "../../core/session/context";
import type { Entry, MessageError } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { getEntries } from "../../db/entries";
import { getSession, updateSession } from "../../db/sessions";
import { freshDatabase } from "../../db/testing/database";
import type { StreamRequest } from "../../providers/types";
import { scriptedWorker } from "../../worker/testing/streams";
import { resetStores } from "../app/store-registry";
import type { ChatTarget } from "../models/chat-target";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { chatModel, chatWithQuestion, compactions, type Turn, thresholdSettings } from "../testing/conversation";
import { useToolLoopStore } from "../tools/loop-store";
import { useMaintenanceStore } from "./maintenance-store";
import type { MaintenanceOp } from "./operation";
import { type MaintainDeps, replyAndMaintain } from "./triggers";

const MODEL = { providerId: "openai", modelId: "gpt-4o" } as const;
const SUMMARY = "## Goal\nLOOP-SUMMARY-7";
const OVER = 10_000;
const UNDER = 10;
const overflow: MessageError = { kind: "context_overflow", message: "prompt is too long" };
const lookUp = (id: string): Turn => ({ calls: [{ id, name: "look_up", args: { q: id } }] });

/** A chat that uses tools, with a question waiting; its requests, the summarizer's, and the measure's answers in order. */
async function loopChat(turns: Turn[], counts: number[]) {
  const { sessionId, question } = await chatWithQuestion(MODEL);
  // A server id Settings does not know: the chat runs the loop, offering no tool (calls get error results).
  await updateSession(sessionId, { tools: { servers: ["gone"], provider: [] } });
  const model = chatModel(turns);
  const { worker, requests } = scriptedWorker([{ delta: SUMMARY }, "done"]);
  const measured: number[] = [];
  const deps: MaintainDeps = {
    reply: { stream: model.stream, now: () => 50_000 },
    maintenance: { worker, now: () => 60_000 },
    measure: async (path: readonly Entry[], _t: ChatTarget) => {
      measured.push(path.length);
      return { tokens: counts.shift() ?? UNDER, exact: true };
    },
  };
  return { sessionId, question, deps, chat: model.requests, summarizer: requests, measured };
}

function recordOps(): MaintenanceOp[] {
  const ops: MaintenanceOp[] = [];
  useMaintenanceStore.subscribe((s, prev) => {
    if (s.op && !prev.op) ops.push(s.op);
  });
  return ops;
}

/** The stored path to the chat's leaf, as kinds: `user`, `assistant`, `tool`, `compaction`. */
async function leafPath(sessionId: SessionId): Promise<Entry[]> {
  const session = await getSession(sessionId);
  if (!session?.leafId) throw new Error("no leaf");
  return pathToRoot(buildTreeIndex(await getEntries(sessionId)), session.leafId);
}
const kinds = (path: readonly Entry[]) => path.map((e) => (e.type === "message" ? e.role : e.type));

/**
 * Every tool call in the request is answered by the message right after it (its tool results), and
 * every result answers a call of the message before it.
 */
function expectNoSplitPair(context: LlmContext): void {
  let open: string[] = [];
  for (const m of context.messages) {
    const results = m.content.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []));
    expect(results.sort()).toEqual([...open].sort());
    open = m.role === "assistant" ? m.content.flatMap((b) => (b.type === "tool_call" ? [b.id] : [])) : [];
  }
}

const settings = (autoContinue = true) =>
  thresholdSettings(MODEL, { toolLoop: { ...DEFAULT_SETTINGS.toolLoop, autoContinue } });

beforeEach(() => {
  freshDatabase();
  resetStores();
  settings();
});
afterEach(() => resetStores());

describe("compaction inside a tool loop", () => {
  it("threshold between steps: compacts, then the loop goes on by itself; the next request is summarized, no split pair", async () => {
    const t = await loopChat([lookUp("c1"), lookUp("c2"), { text: "All looked up." }], [UNDER, OVER, UNDER]);
    const ops = recordOps();
    await replyAndMaintain(t.sessionId, t.question.id, {}, t.deps);

    // Counted before steps 2 and 3 (the path so far); after the answer the compacted path is far
    // below the threshold by its upper bound, so it is not counted.
    expect(t.measured).toEqual([9, 11]);
    expect(ops.map((o) => [o.kind, o.reason])).toEqual([["compaction", "threshold"]]);
    expect(t.chat).toHaveLength(3);
    const path = await leafPath(t.sessionId);
    expect(kinds(path).slice(-6)).toEqual(["assistant", "tool", "assistant", "tool", "compaction", "assistant"]);
    const [card] = await compactions(t.sessionId);
    expect(card?.parentId).toBe(path.at(-3)?.id);

    const after = t.chat[2]?.context as LlmContext;
    expect(JSON.stringify(after)).toContain("LOOP-SUMMARY-7");
    expect(JSON.stringify(t.chat[1]?.context)).not.toContain("LOOP-SUMMARY-7");
    expectNoSplitPair(after);
    // The loop's own last step is still there for the model: its call and its result.
    expect(JSON.stringify(after)).toContain('"callId":"c2"');
    expect(path.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
    expect(useToolLoopStore.getState().ended[t.sessionId]).toBeUndefined();
  });

  it("auto-continue off: the loop ends on the compaction and offers Continue; Continue goes on from the summary", async () => {
    settings(false);
    const t = await loopChat([lookUp("c1"), { text: "Answered after Continue." }], [OVER]);
    await replyAndMaintain(t.sessionId, t.question.id, {}, t.deps);

    expect(t.chat).toHaveLength(1);
    const path = await leafPath(t.sessionId);
    expect(kinds(path).slice(-3)).toEqual(["assistant", "tool", "compaction"]);
    expect(useToolLoopStore.getState().ended[t.sessionId]).toEqual({ kind: "compacted" });

    const leaf = path.at(-1);
    if (!leaf) throw new Error("no leaf");
    await replyAndMaintain(t.sessionId, leaf.id, {}, t.deps);
    expect(t.chat).toHaveLength(2);
    expect(JSON.stringify(t.chat[1]?.context)).toContain("LOOP-SUMMARY-7");
    expectNoSplitPair(t.chat[1]?.context as LlmContext);
    expect(kinds(await leafPath(t.sessionId)).slice(-2)).toEqual(["compaction", "assistant"]);
  });

  it("overflow mid-loop: compacts and retries that step once; the failed attempt is not kept", async () => {
    const t = await loopChat([lookUp("c1"), { error: overflow }, { text: "Answer after the overflow." }], []);
    const ops = recordOps();
    await replyAndMaintain(t.sessionId, t.question.id, {}, t.deps);

    expect(ops.map((o) => [o.kind, o.reason])).toEqual([["compaction", "overflow"]]);
    expect(t.chat).toHaveLength(3);
    const [overflowed, retried] = [t.chat[1] as StreamRequest, t.chat[2] as StreamRequest];
    expect(JSON.stringify(overflowed.context)).not.toContain("LOOP-SUMMARY-7");
    expect(JSON.stringify(retried.context)).toContain("LOOP-SUMMARY-7");
    expectNoSplitPair(retried.context);
    const path = await leafPath(t.sessionId);
    expect(kinds(path).slice(-4)).toEqual(["assistant", "tool", "compaction", "assistant"]);
    expect(path.at(-1)).toMatchObject({ status: "complete" });
    expect((await getEntries(t.sessionId)).filter((e) => e.type === "message" && e.status === "error")).toEqual([]);
  });

  it("a second overflow after the retry is recorded and ends the loop: never a second round", async () => {
    const t = await loopChat([lookUp("c1"), { error: overflow }, { error: overflow }, { text: "never" }], []);
    await replyAndMaintain(t.sessionId, t.question.id, {}, t.deps);
    expect(t.chat).toHaveLength(3);
    expect(await compactions(t.sessionId)).toHaveLength(1);
    const path = await leafPath(t.sessionId);
    expect(path.at(-1)).toMatchObject({ role: "assistant", status: "error", error: overflow });
  });

  it("'Automatic compaction' off: nothing is compacted between steps, the overflow is recorded", async () => {
    thresholdSettings(MODEL, {}, { enabled: false });
    const t = await loopChat([lookUp("c1"), { error: overflow }], [OVER, OVER]);
    await replyAndMaintain(t.sessionId, t.question.id, {}, t.deps);
    expect(t.summarizer).toHaveLength(0);
    expect(await compactions(t.sessionId)).toEqual([]);
    expect((await leafPath(t.sessionId)).at(-1)).toMatchObject({ status: "error" });
  });
});
