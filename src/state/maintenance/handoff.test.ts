import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HandoffEntry, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { appendEntries, getEntries } from "../../db/entries";
import { listQueued } from "../../db/queued";
import { childSessions, createSession, getSession, listSessions } from "../../db/sessions";
import {
  assistantMessage,
  compaction,
  freshDatabase,
  makeSession,
  snapshot,
  userMessage,
} from "../../db/testing/database";
import type { WorkerApi } from "../../worker/api";
import { scriptedWorker } from "../../worker/testing/streams";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { useQueueStore } from "../send/queue-store";
import { queueMessage } from "../send/queued-message";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { settingsWithKeys } from "../testing/settings";
import type { CompactOptions, CompactResult } from "./compact";
import { autoHandoff, createHandoffSession, type HandoffDeps, startHandoff } from "./handoff";
import { useMaintenanceStore } from "./maintenance-store";
import { cancelMaintenance } from "./runner";

const DOC = "## Goal\nParse CSV.\n\n## Next steps\n1. Handle quoted fields.";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function chat(overrides: Partial<Session> = {}): Promise<{ sessionId: SessionId; leafId: EntryId }> {
  const session = makeSession({
    title: "CSV parser",
    systemPrompt: "Be terse.",
    model: { providerId: "openai", modelId: "gpt-5" },
    ...overrides,
  });
  const u1 = userMessage(session.id, null, "Build a CSV parser.", 1);
  const a1 = assistantMessage(session.id, u1.id, "Parser done; quoting next.", 2);
  await createSession({ ...session, leafId: a1.id }, [u1, a1]);
  useUiStore.setState({ sessionId: session.id });
  return { sessionId: session.id, leafId: a1.id };
}

/** A fallback compaction that records its calls instead of running. */
function fakeCompact(result: CompactResult = { kind: "nothing_to_compact", reason: "n/a" }) {
  const calls: Array<{ sessionId: SessionId; opts: CompactOptions }> = [];
  const compact = async (sessionId: SessionId, opts: CompactOptions): Promise<CompactResult> => {
    calls.push({ sessionId, opts });
    return result;
  };
  return { compact, calls };
}

function deps(worker: WorkerApi, compact = fakeCompact().compact): HandoffDeps {
  return { worker, compact };
}

/** Everything stored about one session: its row and its entries. */
async function stateOf(sessionId: SessionId) {
  return { session: await getSession(sessionId), entries: await getEntries(sessionId) };
}

beforeEach(() => {
  freshDatabase();
  resetStores();
  settingsWithKeys();
});
afterEach(() => resetStores());

describe("startHandoff", () => {
  it("returns the draft and the leaf it was written from, under the maintenance lock, writing nothing", async () => {
    const { sessionId, leafId } = await chat();
    const before = await snapshot();
    const { worker, requests } = scriptedWorker([{ delta: DOC }, "done"]);
    const running = startHandoff(sessionId, "next: write the tests", {}, deps(worker));
    expect(useMaintenanceStore.getState().op).toMatchObject({ sessionId, kind: "handoff", automatic: false });
    expect(await running).toEqual({ kind: "document", document: DOC, fromEntryId: leafId });
    expect(useMaintenanceStore.getState().op).toBeNull();
    expect(await snapshot()).toEqual(before);
    // The chat model, with the session's system prompt; the focus rides in the one extra message.
    expect(requests[0]).toMatchObject({ model: "gpt-5", context: { system: "Be terse." } });
    expect(requests[0]?.context.messages).toHaveLength(3);
    expect(JSON.stringify(requests[0]?.context.messages[2])).toContain("next: write the tests");
  });

  it("an empty document falls back to compaction in place, with a notice, and starts no session", async () => {
    const { sessionId, leafId } = await chat();
    const { worker } = scriptedWorker([{ delta: "  " }, "done"]);
    const fallback = fakeCompact({
      kind: "done",
      entry: compaction(sessionId, leafId, "summary"),
      tokensBefore: 10,
      tokensAfter: 5,
    });
    const result = await startHandoff(sessionId, undefined, {}, deps(worker, fallback.compact));
    expect(result).toMatchObject({ kind: "fallback", reason: "empty", compaction: { kind: "done" } });
    expect(fallback.calls).toEqual([{ sessionId, opts: { reason: "manual" } }]);
    expect(useUiStore.getState().notices.at(-1)?.text).toMatch(/empty.*compacted in place/);
    expect(await listSessions()).toHaveLength(1);
  });

  it("a failed call writes nothing", async () => {
    const { sessionId } = await chat();
    const before = await snapshot();
    const { worker } = scriptedWorker([{ error: { kind: "server", message: "500 from provider" } }]);
    expect(await startHandoff(sessionId, undefined, {}, deps(worker))).toEqual({
      kind: "failed",
      message: "500 from provider",
    });
    expect(await snapshot()).toEqual(before);
  });

  it("Cancel writes nothing and releases the lock", async () => {
    const { sessionId } = await chat();
    const before = await snapshot();
    const { worker } = scriptedWorker([{ delta: "## Goal" }, "hang"]);
    const running = startHandoff(sessionId, undefined, {}, deps(worker));
    await sleep(10);
    cancelMaintenance();
    expect(await running).toEqual({ kind: "cancelled" });
    expect(await snapshot()).toEqual(before);
    expect(useMaintenanceStore.getState().op).toBeNull();
  });
});

describe("createHandoffSession", () => {
  it("starts a new session whose first entry is the handoff, linked both ways, old session untouched", async () => {
    const { sessionId, leafId } = await chat();
    const oldBefore = await stateOf(sessionId);
    const result = await createHandoffSession(sessionId, `  ${DOC}\n`, { fromEntryId: leafId });
    if (result.kind !== "created") throw new Error(`expected created, got ${result.kind}`);
    const { session } = result;

    const entries = await getEntries(session.id);
    expect(entries).toHaveLength(1);
    const first = entries[0] as HandoffEntry;
    expect(first).toMatchObject({
      type: "handoff",
      parentId: null,
      document: DOC,
      fromSessionId: sessionId,
      fromEntryId: leafId,
    });
    expect(await getSession(session.id)).toMatchObject({
      leafId: first.id,
      parentSessionId: sessionId,
      parentEntryId: leafId,
      model: { providerId: "openai", modelId: "gpt-5" },
      systemPrompt: "Be terse.",
      title: "CSV parser (part 2)",
    });
    // The old session is exactly as it was; its "Handed off to" link is derived.
    expect(await stateOf(sessionId)).toEqual(oldBefore);
    expect((await childSessions(sessionId)).map((s) => s.id)).toEqual([session.id]);
    expect(useUiStore.getState().sessionId).toBe(session.id);
  });

  it("inherits the global model the old session was following", async () => {
    const { sessionId } = await chat({ model: undefined, systemPrompt: undefined });
    const result = await createHandoffSession(sessionId, DOC);
    if (result.kind !== "created") throw new Error("expected created");
    expect(result.session.model).toEqual(DEFAULT_SETTINGS.defaultModel);
    expect(result.session.systemPrompt).toBeUndefined();
  });

  it("refuses a blank document and an entry of another session, writing nothing", async () => {
    const { sessionId } = await chat();
    const other = await chat();
    const before = await snapshot();
    expect(await createHandoffSession(sessionId, " \n ")).toEqual({ kind: "empty" });
    expect(await createHandoffSession(sessionId, DOC, { fromEntryId: other.leafId })).toEqual({ kind: "not_found" });
    expect(await snapshot()).toEqual(before);
  });
});

describe("autoHandoff (the threshold strategy)", () => {
  it("starts and opens the new session with a notice, no dialog; a queued message goes back to the composer", async () => {
    const { sessionId, leafId } = await chat();
    useQueueStore.setState({ queued: { [sessionId]: { text: "and dates too", queuedAt: 1, state: "waiting" } } });
    const { worker } = scriptedWorker([{ delta: DOC }, "done"]);
    const result = await autoHandoff(sessionId, deps(worker));
    if (result.kind !== "created") throw new Error(`expected created, got ${result.kind}`);
    expect(result.session).toMatchObject({ parentSessionId: sessionId, parentEntryId: leafId });
    expect(useUiStore.getState().sessionId).toBe(result.session.id);
    expect(useUiStore.getState().notices.at(-1)?.text).toContain("handed off to a new session");
    expect(useUiStore.getState().composerSeed?.text).toBe("and dates too");
    expect(useQueueStore.getState().queued).toEqual({});
  });

  it("a message queued while the user was in another chat goes to the new session, not sent, and stays there", async () => {
    const { sessionId } = await chat();
    useUiStore.setState({ sessionId: null });
    await queueMessage(sessionId, "and dates too", 5);
    const { worker } = scriptedWorker([{ delta: DOC }, "done"]);
    const result = await autoHandoff(sessionId, deps(worker));
    if (result.kind !== "created") throw new Error(`expected created, got ${result.kind}`);
    expect(useUiStore.getState().sessionId).toBeNull();
    expect(useQueueStore.getState().queued).toEqual({
      [result.session.id]: { text: "and dates too", queuedAt: 5, state: "unsent" },
    });
    expect(await listQueued()).toEqual([
      { sessionId: result.session.id, text: "and dates too", queuedAt: 5, ownerId: expect.any(String) },
    ]);
    expect(useUiStore.getState().notices.at(-1)?.text).toContain("Your queued message is in the new session");
  });

  it("falls back to threshold compaction when the document is empty", async () => {
    const { sessionId } = await chat();
    const { worker } = scriptedWorker([{ delta: "" }, "done"]);
    const fallback = fakeCompact();
    const result = await autoHandoff(sessionId, deps(worker, fallback.compact));
    expect(result).toMatchObject({ kind: "fallback", reason: "empty" });
    expect(fallback.calls[0]?.opts).toEqual({ reason: "threshold" });
    expect(await listSessions()).toHaveLength(1);
  });

  it("says so in a notice when it fails", async () => {
    const { sessionId } = await chat();
    const { worker } = scriptedWorker([{ error: { kind: "auth", message: "bad key" } }]);
    expect((await autoHandoff(sessionId, deps(worker))).kind).toBe("failed");
    expect(useUiStore.getState().notices.at(-1)?.text).toBe("Auto-handoff failed: bad key");
  });

  it("starts no session when the conversation moved on while the document was written", async () => {
    const { sessionId, leafId } = await chat();
    const base = scriptedWorker([{ delta: DOC }, "done"]).worker;
    let open = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const worker: WorkerApi = {
      ...base,
      handoffDocument: async (job, p, op) => gate.then(() => base.handoffDocument(job, p, op)),
    };
    const running = autoHandoff(sessionId, deps(worker));
    await sleep(10);
    const more = userMessage(sessionId, leafId, "one more thing", 10);
    await appendEntries(sessionId, [more], { kind: "move", to: more.id });
    open();
    expect(await running).toEqual({ kind: "stale" });
    expect(await listSessions()).toHaveLength(1);
  });
});
