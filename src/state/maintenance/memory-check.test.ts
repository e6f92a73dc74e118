/**
 * "Check memory" (issue 29): the side requests (drafting by the summary model, answers by the chat
 * model against the compacted context, a grader only where the span is not in the answer), and
 * that nothing enters the tree.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROBE_GRADE_SYSTEM, PROBE_SYSTEM } from "../../core/compaction/memory-check";
import type { CompactionEntry, Entry } from "../../core/session/entries";
import { newEntryId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { createSession } from "../../db/sessions";
import { assistantMessage, freshDatabase, makeSession, userMessage } from "../../db/testing/database";
import type { SummarizeRequest } from "../../worker/client";
import { resetStores } from "../app/store-registry";
import { thresholdSettings } from "../testing/conversation";
import { runMemoryCheck, useMemoryCheckStore } from "./memory-check";

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
  it("drafts, asks, grades by span then by the grader; appends nothing", async () => {
    const { sessionId, compaction, a1 } = await compactedChat();
    const calls: SummarizeRequest[] = [];
    const summarize = async (req: SummarizeRequest): Promise<string> => {
      calls.push(req);
      if (req.system === PROBE_SYSTEM) {
        return JSON.stringify([
          { question: "Which database?", span: "Postgres 16", source: 1 },
          { question: "Pool size?", span: "The pool size is 40", source: 1 },
          { question: "Bad", span: "MySQL", source: 1 },
        ]);
      }
      if (req.system === PROBE_GRADE_SYSTEM) return "NO";
      return req.prompt.includes("Which database?") ? "You chose Postgres 16." : "I don't know.";
    };
    const before = await getEntries(sessionId);
    const state = await runMemoryCheck(sessionId, compaction.id, { summarize });
    expect(state.status).toBe("done");
    if (state.status !== "done") return;
    expect(state.result.results.map((r) => [r.probe.span, r.recalled, r.gradedBy])).toEqual([
      ["Postgres 16", true, "span"],
      ["The pool size is 40", false, "grader"],
    ]);
    expect(state.result.results[0]?.probe.source.entryId).toBe(a1.id);
    expect(state.result.requests).toBe(4); // draft, 2 answers, 1 grader
    // The answers are asked against the compacted context, with the chat's prompt as system.
    const answers = calls.filter((c) => c.system !== PROBE_SYSTEM && c.system !== PROBE_GRADE_SYSTEM);
    expect(answers).toHaveLength(2);
    for (const c of answers) {
      expect(c.system).toContain("CHAT PROMPT");
      expect(c.prompt).toContain("The user asked about databases.");
      expect(c.prompt).not.toContain("We chose Postgres 16");
    }
    expect(await getEntries(sessionId)).toEqual(before);
    expect(useMemoryCheckStore.getState().checks[compaction.id]).toEqual(state);
  });

  it("no checkable probe: a clear failure, no answers asked", async () => {
    const { sessionId, compaction } = await compactedChat();
    let n = 0;
    const state = await runMemoryCheck(sessionId, compaction.id, {
      summarize: async () => {
        n++;
        return "I cannot do that.";
      },
    });
    expect(state).toMatchObject({ status: "failed" });
    expect(n).toBe(1);
  });
});
