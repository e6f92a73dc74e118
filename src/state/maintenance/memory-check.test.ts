/**
 * "Check memory" (issue 29): the side requests (drafting by the summary model, answers by the chat
 * model against the compacted context, a grader only where the span is not in the answer), and
 * that nothing enters the tree.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answerPrompt, PROBE_GRADE_SYSTEM, PROBE_SYSTEM } from "../../core/compaction/memory-check";
import type { CompactionEntry, Entry } from "../../core/session/entries";
import { newEntryId } from "../../core/session/ids";
import { getEntries, getSessionPath } from "../../db/entries";
import { memoryCheckCostsOf } from "../../db/memory-check-costs";
import { createSession } from "../../db/sessions";
import { assistantMessage, freshDatabase, makeSession, userMessage } from "../../db/testing/database";
import { resetStores } from "../app/store-registry";
import { requestFor } from "../context/send-context";
import { chatSpending, recentSpending } from "../data/spending";
import { chatTarget, isTargetError } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { thresholdSettings } from "../testing/conversation";
import { runMemoryCheck, useMemoryCheckStore } from "./memory-check";
import type { SideAnswer, SideRequest } from "./side-request";

const system = (req: SideRequest): string => req.context.system;
const lastUser = (req: SideRequest): string => {
  const last = req.context.messages.at(-1);
  return last?.role === "user" ? last.content.map((b) => ("text" in b ? b.text : "")).join("") : "";
};

const MODEL = { providerId: "openai", modelId: "gpt-4o" } as const;

beforeEach(() => {
  freshDatabase();
  resetStores();
  thresholdSettings(MODEL);
});
afterEach(() => resetStores());

async function compactedChat() {
  const session = makeSession({ model: { ...MODEL }, systemPrompt: "CHAT PROMPT" });
  const u1 = userMessage(session.id, null, "Which database?", 1);
  const a1 = assistantMessage(session.id, u1.id, "We chose Postgres 16. The pool size is 40.", 2);
  const u2 = userMessage(session.id, a1.id, "ok next", 3);
  const c: CompactionEntry = {
    type: "compaction",
    id: newEntryId(),
    sessionId: session.id,
    parentId: u2.id,
    createdAt: 4,
    summary: "The user asked about databases.",
    shortSummary: "db",
    firstKeptEntryId: u2.id,
    keptUserTurnIds: [u1.id],
    tokensBefore: 100,
    tokensAfter: 50,
    reason: "manual",
    model: "gpt-4o",
  };
  const entries: Entry[] = [u1, a1, u2, c];
  await createSession({ ...session, leafId: c.id }, entries);
  return { sessionId: session.id, compaction: c, a1 };
}

describe("runMemoryCheck", () => {
  it("drafts, asks, grades by span then by the grader; appends nothing; cost from reported usage", async () => {
    const { sessionId, compaction, a1 } = await compactedChat();
    const calls: SideRequest[] = [];
    const ask = async (req: SideRequest): Promise<SideAnswer> => {
      calls.push(req);
      const usage = { input: 1_000_000, output: 0 };
      if (system(req) === PROBE_SYSTEM) {
        return {
          usage,
          text: JSON.stringify([
            { question: "Which database?", span: "Postgres 16", source: 1 },
            { question: "Pool size?", span: "The pool size is 40", source: 1 },
            { question: "Bad", span: "MySQL", source: 1 },
          ]),
        };
      }
      if (system(req) === PROBE_GRADE_SYSTEM) return { text: "NO", usage };
      return { text: lastUser(req).includes("Which database?") ? "You chose Postgres 16." : "I don't know.", usage };
    };
    const before = await getEntries(sessionId);
    const state = await runMemoryCheck(sessionId, compaction.id, { ask });
    expect(state.status).toBe("done");
    if (state.status !== "done") return;
    expect(state.result.results.map((r) => [r.probe.span, r.recalled, r.gradedBy])).toEqual([
      ["Postgres 16", true, "span"],
      ["The pool size is 40", false, "grader"],
    ]);
    expect(state.result.results[0]?.probe.source.entryId).toBe(a1.id);
    expect(state.result.requests).toBe(4); // draft, 2 answers, 1 grader
    // Reported usage, priced: 4 requests of 1M input tokens to gpt-4o ($2.50 each).
    expect(state.result.usage).toEqual([{ model: "gpt-4o", usage: { input: 4_000_000, output: 0 } }]);
    expect(state.result.usd).toBeCloseTo(10);
    const answers = calls.filter((c) => system(c) !== PROBE_SYSTEM && system(c) !== PROBE_GRADE_SYSTEM);
    expect(answers).toHaveLength(2);
    for (const c of answers) {
      expect(c.context.system).toContain("CHAT PROMPT");
      expect(JSON.stringify(c.context.messages)).toContain("The user asked about databases.");
      expect(JSON.stringify(c.context.messages)).not.toContain("We chose Postgres 16");
    }
    expect(await getEntries(sessionId)).toEqual(before);
    expect(useMemoryCheckStore.getState().checks[compaction.id]).toEqual(state);
  });

  it("asks each question as a replay of the chat's next request: the same system prompt and messages, plus the question", async () => {
    const { sessionId, compaction } = await compactedChat();
    const calls: SideRequest[] = [];
    const ask = async (req: SideRequest): Promise<SideAnswer> => {
      calls.push(req);
      if (system(req) === PROBE_SYSTEM) {
        return { text: JSON.stringify([{ question: "Which database?", span: "Postgres 16", source: 1 }]) };
      }
      return { text: "Postgres 16." };
    };
    await runMemoryCheck(sessionId, compaction.id, { ask });
    const probe = calls.find((c) => lastUser(c).includes("Which database?"));
    if (!probe) throw new Error("no probe request");
    // The next chat request, as the send path builds it for the path up to the compaction.
    const read = await getSessionPath(sessionId);
    if (!read) throw new Error("no chat");
    const target = chatTarget(read.session, useSettingsStore.getState().settings);
    if (isTargetError(target)) throw new Error(target.message);
    const next = requestFor(read.path, target);
    expect(probe.context.system).toBe(next.system);
    expect(probe.context.messages.slice(0, -1)).toEqual(next.messages);
    expect(probe.context.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: answerPrompt("Which database?") }],
    });
    expect(probe.model).toBe("gpt-4o");
  });

  it("uses the user's memory-check prompts (Settings → Prompts)", async () => {
    const { sessionId, compaction } = await compactedChat();
    const { settings } = useSettingsStore.getState();
    useSettingsStore.setState({
      settings: {
        ...settings,
        prompts: {
          "probe-draft": { text: "MY DRAFT {{count}} {{sources}}", version: 1 },
          "probe-answer": { text: "MY QUESTION: {{question}}", version: 1 },
        },
      },
    });
    const calls: SideRequest[] = [];
    await runMemoryCheck(sessionId, compaction.id, {
      ask: async (req) => {
        calls.push(req);
        return system(req) === PROBE_SYSTEM
          ? { text: JSON.stringify([{ question: "Which database?", span: "Postgres 16", source: 1 }]) }
          : { text: "Postgres 16" };
      },
    });
    expect(lastUser(calls[0] as SideRequest)).toMatch(/^MY DRAFT 5 <passage number="1">/);
    expect(lastUser(calls[1] as SideRequest)).toBe("MY QUESTION: Which database?");
  });

  it("no checkable probe: a clear failure, no answers asked", async () => {
    const { sessionId, compaction } = await compactedChat();
    let n = 0;
    const state = await runMemoryCheck(sessionId, compaction.id, {
      ask: async () => {
        n++;
        return { text: "I cannot do that." };
      },
    });
    expect(state).toMatchObject({ status: "failed" });
    expect(n).toBe(1);
  });
});

describe("what a memory check costs, in Spending and Chat info", () => {
  const NOW = new Date(2026, 10, 20).getTime();
  const usage = { input: 1_000_000, output: 0 }; // $2.50 at gpt-4o's price
  /** A check whose draft names one probe that is answered by span: two requests, $5. */
  const ask = async (req: SideRequest): Promise<SideAnswer> =>
    system(req) === PROBE_SYSTEM
      ? { text: JSON.stringify([{ question: "Which database?", span: "Postgres 16", source: 1 }]), usage }
      : { text: "Postgres 16.", usage };

  it("a run is recorded once, as its own line per month; reading again adds nothing; a re-run is a new cost", async () => {
    const { sessionId, compaction } = await compactedChat();
    const state = await runMemoryCheck(sessionId, compaction.id, { ask, now: () => NOW });
    expect(state.status).toBe("done");
    const rows = await memoryCheckCostsOf(sessionId);
    expect(rows).toEqual([
      {
        id: expect.any(String),
        sessionId,
        compactionId: compaction.id,
        createdAt: NOW,
        usage: [{ model: "gpt-4o", usage: { input: 2_000_000, output: 0 } }],
      },
    ]);
    const month = async () => (await chatSpending(sessionId)).find((m) => m.month === "2026-11");
    expect((await month())?.memoryChecks).toEqual({ usd: expect.closeTo(5, 10), priced: 1, unknown: 0 });
    // The compaction entry of the fixture reported nothing; the check is not counted as compaction.
    expect((await month())?.compaction).toEqual({ usd: 0, priced: 0, unknown: 0 });
    // Read again (a re-render, a reopened dialog): the same figure.
    expect((await month())?.memoryChecks.usd).toBeCloseTo(5);

    await runMemoryCheck(sessionId, compaction.id, { ask, now: () => NOW + 1 });
    const again = await memoryCheckCostsOf(sessionId);
    expect(again).toHaveLength(2);
    expect(new Set(again.map((r) => r.id)).size).toBe(2);
    expect((await month())?.memoryChecks.usd).toBeCloseTo(10);
    // Settings › Spending (every chat, the last three months) counts them too.
    const all = (await recentSpending(NOW)).find((m) => m.month === "2026-11");
    expect(all?.memoryChecks.usd).toBeCloseTo(10);
  });

  it("a run that fails part way records what its answered requests reported; one that reported nothing, nothing", async () => {
    const { sessionId, compaction } = await compactedChat();
    const failed = await runMemoryCheck(sessionId, compaction.id, {
      ask: async (req) => {
        if (system(req) === PROBE_SYSTEM) return ask(req);
        throw new Error("overloaded");
      },
      now: () => NOW,
    });
    expect(failed).toMatchObject({ status: "failed", message: expect.stringContaining("overloaded") });
    expect((await memoryCheckCostsOf(sessionId)).map((r) => r.usage)).toEqual([[{ model: "gpt-4o", usage }]]);

    await runMemoryCheck(sessionId, compaction.id, { ask: async () => ({ text: "[]" }), now: () => NOW });
    expect(await memoryCheckCostsOf(sessionId)).toHaveLength(1);
  });
});
