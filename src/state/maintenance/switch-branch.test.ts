import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_PREAMBLE } from "../../core/prompts";
import type { BranchSummaryEntry, Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { appendEntries, getEntries, moveLeaf } from "../../db/entries";
import { createSession, getSession } from "../../db/sessions";
import { getSetting } from "../../db/settings";
import { assistantMessage, freshDatabase, makeSession, snapshot, userMessage } from "../../db/testing/database";
import type { WorkerApi } from "../../worker/api";
import { type ScriptStep, scriptedWorker } from "../../worker/testing/streams";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { settingsWithKeys } from "../testing/settings";
import { compactSession } from "./compact";
import { useMaintenanceStore } from "./maintenance-store";
import { cancelMaintenance } from "./runner";
import { previewSwitch, rememberedSwitchChoice, rememberSwitchChoice, switchHere } from "./switch-branch";

const SUMMARY = "## Goal\nTry approach A.\n\n## Progress\n- Blocked: it timed out.";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 *        u1
 *        |
 *        a1
 *      /    \
 *    u2      u2b
 *    |        |
 *    a2       a2b
 *    ^ leaf
 */
async function forkedSession(): Promise<{ sessionId: SessionId; id: Record<string, EntryId> }> {
  const session = makeSession({ title: "Fork" });
  const u1 = userMessage(session.id, null, "hello", 1);
  const a1 = assistantMessage(session.id, u1.id, "hi", 2);
  const u2 = userMessage(session.id, a1.id, "first try", 3);
  const a2 = assistantMessage(session.id, u2.id, "answer one", 4);
  const u2b = userMessage(session.id, a1.id, "second try", 5);
  const a2b = assistantMessage(session.id, u2b.id, "answer two", 6);
  await createSession({ ...session, leafId: a2.id }, [u1, a1, u2, a2, u2b, a2b]);
  useUiStore.setState({ sessionId: session.id });
  return { sessionId: session.id, id: { u1: u1.id, a1: a1.id, u2: u2.id, a2: a2.id, u2b: u2b.id, a2b: a2b.id } };
}

const summaryOk: ScriptStep[] = [{ delta: SUMMARY }, "done"];

/** A worker whose branch summary waits for `open()` before it starts. */
function gated(worker: WorkerApi): { worker: WorkerApi; open: () => void } {
  let open = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  return {
    worker: { ...worker, branchSummary: async (job, p, op) => gate.then(() => worker.branchSummary(job, p, op)) },
    open,
  };
}

const leafOf = async (sessionId: SessionId) => (await getSession(sessionId))?.leafId;
const newEntries = async (sessionId: SessionId, before: number): Promise<Entry[]> =>
  (await getEntries(sessionId)).slice(before);

beforeEach(() => {
  freshDatabase();
  resetStores();
  settingsWithKeys();
});
afterEach(() => resetStores());

describe("switchHere without a summary", () => {
  it("on an assistant message: moves the leaf there and appends nothing", async () => {
    const { sessionId, id } = await forkedSession();
    const result = await switchHere(sessionId, id.a2b!, { kind: "none" });
    expect(result).toEqual({ kind: "switched", leafId: id.a2b, summary: null });
    expect(await leafOf(sessionId)).toBe(id.a2b);
    expect(await getEntries(sessionId)).toHaveLength(6);
    expect(useUiStore.getState().composerSeed).toBeNull();
  });

  it("on a user message: moves the leaf to its parent and puts its text back into the composer", async () => {
    const { sessionId, id } = await forkedSession();
    const result = await switchHere(sessionId, id.u2b!, { kind: "none" });
    expect(result).toMatchObject({ kind: "switched", leafId: id.a1, composerText: "second try" });
    expect(await leafOf(sessionId)).toBe(id.a1);
    expect(useUiStore.getState().composerSeed?.text).toBe("second try");
  });

  it("on the leaf: nothing to do; on an unknown id: not found", async () => {
    const { sessionId, id } = await forkedSession();
    expect(await switchHere(sessionId, id.a2!, { kind: "none" })).toEqual({ kind: "nothing_to_do" });
    expect(await switchHere(sessionId, "nope" as EntryId, { kind: "none" })).toEqual({ kind: "not_found" });
  });
});

describe("switchHere with a summary", () => {
  it("appends the branch_summary as a child of the new position, makes it the leaf, in one write", async () => {
    const { sessionId, id } = await forkedSession();
    const { worker, requests } = scriptedWorker(summaryOk);
    const result = await switchHere(sessionId, id.a2b!, { kind: "summarize" }, { worker });
    expect(result.kind).toBe("switched");
    const added = await newEntries(sessionId, 6);
    expect(added).toHaveLength(1);
    const entry = added[0] as BranchSummaryEntry;
    expect(entry).toMatchObject({
      type: "branch_summary",
      parentId: id.a2b,
      fromId: id.a2,
      summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${SUMMARY}`,
      model: DEFAULT_SETTINGS.defaultModel.modelId,
    });
    expect(await leafOf(sessionId)).toBe(entry.id);
    expect(result).toMatchObject({ leafId: entry.id, summary: { id: entry.id } });
    // The abandoned branch (u2, a2) was summarized, not the shared part or the new branch.
    const prompt = JSON.stringify(requests[0]?.context.messages);
    expect(prompt).toContain("first try");
    expect(prompt).toContain("answer one");
    expect(prompt).not.toContain("answer two");
    expect(useMaintenanceStore.getState().op).toBeNull();
  });

  it("on a user message: the summary hangs under its parent and its text goes back into the composer", async () => {
    const { sessionId, id } = await forkedSession();
    const { worker } = scriptedWorker(summaryOk);
    const result = await switchHere(sessionId, id.u2b!, { kind: "summarize", instructions: "Be short" }, { worker });
    expect(result).toMatchObject({ kind: "switched", composerText: "second try" });
    const [entry] = await newEntries(sessionId, 6);
    expect(entry).toMatchObject({ type: "branch_summary", parentId: id.a1, instructions: "Be short" });
    expect(useUiStore.getState().composerSeed?.text).toBe("second try");
  });

  it("on a root user message: the summary becomes a root entry", async () => {
    const { sessionId, id } = await forkedSession();
    const { worker } = scriptedWorker(summaryOk);
    await switchHere(sessionId, id.u1!, { kind: "summarize" }, { worker });
    const [entry] = await newEntries(sessionId, 6);
    expect(entry).toMatchObject({ type: "branch_summary", parentId: null, fromId: id.a2 });
    expect(await leafOf(sessionId)).toBe(entry?.id);
  });

  it("just moves the leaf when the branch being left has nothing to summarize", async () => {
    const { sessionId, id } = await forkedSession();
    await moveLeaf(sessionId, id.a1!);
    const { worker, requests } = scriptedWorker(summaryOk);
    const result = await switchHere(sessionId, id.a2b!, { kind: "summarize" }, { worker });
    expect(result).toEqual({ kind: "switched", leafId: id.a2b, summary: null });
    expect(requests).toHaveLength(0);
  });

  it("a failing summarizer writes nothing and leaves the leaf where it was", async () => {
    const { sessionId, id } = await forkedSession();
    const before = await snapshot();
    const { worker } = scriptedWorker([{ error: { kind: "overloaded", message: "Overloaded" } }]);
    const result = await switchHere(sessionId, id.u2b!, { kind: "summarize" }, { worker });
    expect(result).toEqual({ kind: "failed", message: "Overloaded" });
    expect(await snapshot()).toEqual(before);
    expect(useUiStore.getState().composerSeed).toBeNull();
    expect(useMaintenanceStore.getState().op).toBeNull();
  });

  it("an empty summary writes nothing", async () => {
    const { sessionId, id } = await forkedSession();
    const before = await snapshot();
    const { worker } = scriptedWorker([{ delta: " " }, "done"]);
    expect((await switchHere(sessionId, id.a2b!, { kind: "summarize" }, { worker })).kind).toBe("failed");
    expect(await snapshot()).toEqual(before);
  });

  it("Cancel (the shared maintenance cancel) writes nothing and leaves the leaf unchanged", async () => {
    const { sessionId, id } = await forkedSession();
    const before = await snapshot();
    const { worker } = scriptedWorker([{ delta: "Partial summ" }, "hang"]);
    const running = switchHere(sessionId, id.u2b!, { kind: "summarize" }, { worker });
    await sleep(20);
    expect(useMaintenanceStore.getState().op).toMatchObject({ sessionId, kind: "branch_summary" });
    cancelMaintenance();
    expect(await running).toEqual({ kind: "cancelled" });
    expect(await snapshot()).toEqual(before);
    expect(useUiStore.getState().composerSeed).toBeNull();
    expect(useMaintenanceStore.getState().op).toBeNull();
  });

  it("shares the one maintenance lock with compaction", async () => {
    const { sessionId, id } = await forkedSession();
    const { worker } = scriptedWorker(["hang"]);
    const running = switchHere(sessionId, id.a2b!, { kind: "summarize" }, { worker });
    await sleep(10);
    expect(await switchHere(sessionId, id.u2b!, { kind: "summarize" }, { worker })).toEqual({ kind: "busy" });
    expect(await switchHere(sessionId, id.u2b!, { kind: "none" })).toEqual({ kind: "busy" });
    expect(await compactSession(sessionId, { reason: "manual" })).toEqual({ kind: "busy" });
    cancelMaintenance();
    expect((await running).kind).toBe("cancelled");
  });

  it("writes nothing when the conversation moved on while the summary was written (stale)", async () => {
    const { sessionId, id } = await forkedSession();
    const base = scriptedWorker(summaryOk);
    const { worker, open } = gated(base.worker);
    const running = switchHere(sessionId, id.a2b!, { kind: "summarize" }, { worker });
    await sleep(10);
    // Another tab sends a message at the old leaf meanwhile.
    const other = userMessage(sessionId, id.a2!, "from another tab", 10);
    await appendEntries(sessionId, [other], { kind: "move", to: other.id });
    open();
    expect(await running).toEqual({ kind: "stale" });
    expect(await leafOf(sessionId)).toBe(other.id);
    expect((await getEntries(sessionId)).some((e) => e.type === "branch_summary")).toBe(false);
  });
});

describe("the remembered choice", () => {
  it("is persisted in settings and read back as the dialog's default", async () => {
    expect(rememberedSwitchChoice()).toBeNull();
    await rememberSwitchChoice({ kind: "summarize", instructions: "not remembered" });
    expect(useSettingsStore.getState().settings.switchSummaryDefault).toBe("summarize");
    expect(await getSetting("switchSummaryDefault")).toBe("summarize");
    expect(rememberedSwitchChoice()).toEqual({ kind: "summarize" });
    await rememberSwitchChoice({ kind: "none" });
    expect(rememberedSwitchChoice()).toEqual({ kind: "none" });
    await rememberSwitchChoice("ask");
    expect(rememberedSwitchChoice()).toBeNull();
  });

  it("previewSwitch tells the dialog whether there is anything to summarize", async () => {
    const { sessionId, id } = await forkedSession();
    expect(await previewSwitch(sessionId, id.u2b!)).toEqual({
      kind: "switch",
      summarizable: true,
      abandonedEntries: 2,
      composerText: "second try",
      remembered: null,
    });
    expect(await previewSwitch(sessionId, id.a2!)).toEqual({ kind: "nothing_to_do" });
  });
});
