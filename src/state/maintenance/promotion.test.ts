/**
 * Context promotion in the automatic triggers (triggers.ts `makeRoom`): the larger sibling
 * first, compaction only when none is set or it is full too; Undo goes back and is remembered.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Entry, MessageError } from "../../core/session/entries";
import { getEntries } from "../../db/entries";
import { getSession } from "../../db/sessions";
import { freshDatabase } from "../../db/testing/database";
import { scriptedWorker } from "../../worker/testing/streams";
import { resetStores } from "../app/store-registry";
import type { ChatTarget } from "../models/chat-target";
import type { Settings } from "../settings/settings-model";
import { chatModel, chatWithQuestion, compactions, type Turn, thresholdSettings } from "../testing/conversation";
import { undoPromotion } from "./promotion";
import { usePromotionStore } from "./promotion-notice";
import { type MaintainDeps, replyAndMaintain } from "./triggers";

const SMALL = { providerId: "openai", modelId: "gpt-4o" } as const;
const LARGE = { providerId: "openai", modelId: "gpt-4.1" } as const;

/** The context's size as each model counts it (the threshold is 40 tokens for both). */
function setup(turns: Turn[], largeTokens = 20) {
  const model = chatModel(turns);
  const { worker, requests } = scriptedWorker([{ delta: "## Goal\nGo on." }, "done"]);
  const measuredFor: string[] = [];
  const deps: MaintainDeps = {
    reply: { stream: model.stream, now: () => 1 },
    maintenance: { worker, now: () => 2 },
    measure: async (_path: readonly Entry[], target: ChatTarget) => {
      measuredFor.push(target.modelId);
      return { tokens: target.modelId === LARGE.modelId ? largeTokens : 10_000, exact: true };
    },
  };
  return { deps, chat: model.requests, summarizer: requests, measuredFor };
}

/** A threshold of 40 tokens the path's upper bound cannot clear, so the (injected) measure decides. */
const settings = (patch: Partial<Settings> = {}) =>
  thresholdSettings(SMALL, { largerModels: { [SMALL.modelId]: LARGE }, ...patch });

beforeEach(() => {
  freshDatabase();
  resetStores();
  usePromotionStore.setState({ bySession: {}, declined: {} });
  settings();
});
afterEach(() => resetStores());

describe("context promotion before compaction", () => {
  it("threshold: the chat moves to the larger sibling, with a notice, and nothing is compacted", async () => {
    const { sessionId, question } = await chatWithQuestion(SMALL);
    const t = setup([{ text: "Here." }]);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect((await getSession(sessionId))?.model).toEqual(LARGE);
    expect(await compactions(sessionId)).toEqual([]);
    expect(t.summarizer).toHaveLength(0);
    expect(usePromotionStore.getState().bySession[sessionId]).toMatchObject({
      from: SMALL,
      to: LARGE,
      reason: "threshold",
    });
  });

  it("no sibling set: compacts as before", async () => {
    settings({ largerModels: {} });
    const { sessionId, question } = await chatWithQuestion(SMALL);
    const t = setup([{ text: "Here." }]);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect((await getSession(sessionId))?.model).toEqual(SMALL);
    expect(await compactions(sessionId)).toHaveLength(1);
  });

  it("the larger sibling is full too: compacts, and the model stays", async () => {
    const { sessionId, question } = await chatWithQuestion(SMALL);
    const t = setup([{ text: "Here." }], 10_000);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect(t.measuredFor).toContain(LARGE.modelId);
    expect((await getSession(sessionId))?.model).toEqual(SMALL);
    expect((await compactions(sessionId)).map((c) => c.reason)).toEqual(["threshold"]);
  });

  it("overflow: the same request is retried once on the larger model, before any compaction", async () => {
    const { sessionId, question } = await chatWithQuestion(SMALL);
    const overflow: MessageError = { kind: "context_overflow", message: "prompt is too long" };
    const t = setup([{ error: overflow }, { text: "Answer from the larger model." }]);
    await replyAndMaintain(sessionId, question.id, {}, t.deps);
    expect(t.chat.map((r) => r.model)).toEqual([SMALL.modelId, LARGE.modelId]);
    expect(await compactions(sessionId)).toEqual([]);
    const replies = (await getEntries(sessionId)).filter((e) => e.parentId === question.id);
    expect(replies).toHaveLength(2);
    expect((await getSession(sessionId))?.model).toEqual(LARGE);
  });

  it("Undo goes back to the previous model, and that chat is not promoted again", async () => {
    const { sessionId, question } = await chatWithQuestion(SMALL);
    await replyAndMaintain(sessionId, question.id, {}, setup([{ text: "One." }]).deps);
    await undoPromotion(sessionId);
    expect((await getSession(sessionId))?.model).toEqual(SMALL);
    expect(usePromotionStore.getState().bySession[sessionId]).toBeUndefined();

    const leaf = (await getSession(sessionId))?.leafId;
    if (!leaf) throw new Error("no leaf");
    await replyAndMaintain(sessionId, leaf, {}, setup([{ text: "Two." }]).deps);
    expect((await getSession(sessionId))?.model).toEqual(SMALL);
    expect(await compactions(sessionId)).toHaveLength(1);
  });
});
