import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { createSession, getSession } from "../../db/sessions";
import { assistantMessage, freshDatabase, makeSession, userMessage } from "../../db/testing/database";
import { scriptedWorker } from "../../worker/testing/streams";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { settingsWithKeys } from "../testing/settings";
import { abortMaintenance } from "./lock";
import { useMaintenanceStore } from "./maintenance-store";
import type { MaintenanceOp } from "./operation";
import { holdAhead, type MaintenanceDb, maintenanceDeps, runMaintenance } from "./runner";

async function chat(): Promise<{ sessionId: SessionId; leaf: Entry }> {
  const session = makeSession();
  const u = userMessage(session.id, null, "hello", 1);
  const a = assistantMessage(session.id, u.id, "hi", 2);
  await createSession({ ...session, leafId: a.id }, [u, a]);
  return { sessionId: session.id, leaf: a };
}

const clock = (at: number) => () => at;

beforeEach(() => {
  freshDatabase();
  resetStores();
  useSettingsStore.setState({ settings: DEFAULT_SETTINGS, loaded: true });
});
afterEach(() => resetStores());

describe("runMaintenance", () => {
  it("holds the one lock while the work runs (with the operation, its reason and the clock's time), then releases it", async () => {
    const { sessionId } = await chat();
    let during: MaintenanceOp | null = null;
    const result = await runMaintenance(
      sessionId,
      { kind: "compaction", reason: "threshold" },
      async ({ session, entries, progress }) => {
        progress({ phase: "summarizing", window: 2, windows: 3 }, "so far");
        during = useMaintenanceStore.getState().op;
        return { kind: "ok" as const, leaf: session?.leafId, entries: entries.length };
      },
      maintenanceDeps({ now: clock(42) }),
    );
    expect(result).toMatchObject({ kind: "ok", entries: 2 });
    expect(during).toEqual({
      kind: "compaction",
      reason: "threshold",
      sessionId,
      automatic: true,
      progress: { phase: "summarizing", window: 2, windows: 3 },
      text: "so far",
      startedAt: 42,
    });
    expect(useMaintenanceStore.getState().op).toBeNull();
  });

  it("is busy while another operation holds the lock: the work never runs", async () => {
    const { sessionId } = await chat();
    let ran = false;
    let inner: unknown;
    await runMaintenance(sessionId, { kind: "handoff", reason: "manual" }, async () => {
      inner = await runMaintenance(sessionId, { kind: "branch_summary", reason: "switch" }, async () => {
        ran = true;
      });
    });
    expect(inner).toEqual({ kind: "busy" });
    expect(ran).toBe(false);
  });

  it("each operation has its own progress: a branch summary and a handoff say what they do, not 'window 1 of 1'", async () => {
    const { sessionId } = await chat();
    const seen: unknown[] = [];
    await runMaintenance(sessionId, { kind: "branch_summary", reason: "switch" }, async ({ progress }) => {
      progress({ phase: "summarizing" }, "gist");
      seen.push(useMaintenanceStore.getState().op);
    });
    await runMaintenance(sessionId, { kind: "handoff", reason: "threshold" }, async ({ progress }) => {
      progress({ phase: "writing" }, "doc");
      seen.push(useMaintenanceStore.getState().op);
    });
    expect(seen).toMatchObject([
      { kind: "branch_summary", reason: "switch", automatic: false, progress: { phase: "summarizing" }, text: "gist" },
      { kind: "handoff", reason: "threshold", automatic: true, progress: { phase: "writing" }, text: "doc" },
    ]);
  });

  it("a failure carries its message (the dialog titles it); automatic ones also become a notice with the prefix; a throw is a failure, never a throw", async () => {
    const { sessionId } = await chat();
    const manual = await runMaintenance(sessionId, { kind: "compaction", reason: "manual" }, async ({ fail }) =>
      fail("no key"),
    );
    expect(manual).toEqual({ kind: "failed", message: "no key" });
    expect(useUiStore.getState().notices).toEqual([]);

    const overflow = await runMaintenance(sessionId, { kind: "compaction", reason: "overflow" }, async () => {
      throw new Error("disk on fire");
    });
    expect(overflow).toEqual({ kind: "failed", message: "disk on fire" });
    const handoff = await runMaintenance(sessionId, { kind: "handoff", reason: "threshold" }, async ({ fail }) =>
      fail("empty"),
    );
    expect(handoff).toEqual({ kind: "failed", message: "empty" });
    expect(useUiStore.getState().notices.map((n) => n.text)).toEqual([
      "Context overflow recovery failed: disk on fire",
      "Auto-handoff failed: empty",
    ]);
    expect(useMaintenanceStore.getState().op).toBeNull();
  });

  it("Cancel aborts the work's signal", async () => {
    const { sessionId } = await chat();
    const result = await runMaintenance(sessionId, { kind: "compaction", reason: "manual" }, async ({ signal }) => {
      abortMaintenance();
      return signal.aborted ? { kind: "cancelled" as const } : { kind: "ran" as const };
    });
    expect(result).toEqual({ kind: "cancelled" });
  });

  it("appends only if the leaf has not moved (real db): a stale result writes nothing", async () => {
    const { sessionId, leaf } = await chat();
    const deps = maintenanceDeps({ now: clock(7) });
    const late = assistantMessage(sessionId, leaf.id, "late", 5);
    const appended = await runMaintenance(sessionId, { kind: "compaction", reason: "manual" }, async (ctx) =>
      ctx.deps.db.appendIfLeafIs(sessionId, late, leaf.parentId, ctx.deps.now()),
    );
    expect(appended).toBe(false);
    expect(await getEntries(sessionId)).toHaveLength(2);
    expect((await getSession(sessionId))?.leafId).toBe(leaf.id);
    const ok = await runMaintenance(
      sessionId,
      { kind: "compaction", reason: "manual" },
      async (ctx) => ctx.deps.db.appendIfLeafIs(sessionId, late, leaf.id, ctx.deps.now()),
      deps,
    );
    expect(ok).toBe(true);
    expect((await getSession(sessionId))?.leafId).toBe(late.id);
  });

  it("reads through the injected db and hands the work the injected worker", async () => {
    const reads: SessionId[] = [];
    const db: MaintenanceDb = {
      read: async (id) => {
        reads.push(id);
        return { session: undefined, entries: [] };
      },
      appendIfLeafIs: async () => true,
    };
    const { worker } = scriptedWorker(["done"]);
    const sessionId = makeSession().id;
    const result = await runMaintenance(
      sessionId,
      { kind: "branch_summary", reason: "switch" },
      async (ctx) => ({ session: ctx.session, worker: ctx.deps.worker === worker }),
      maintenanceDeps({ db, worker }),
    );
    expect(reads).toEqual([sessionId]);
    expect(result).toEqual({ session: undefined, worker: true });
  });

  it("takes the lock ahead (its bar at once) and a run under it keeps it to the end; released, it is free again", async () => {
    const { sessionId } = await chat();
    const op = { kind: "compaction", reason: "preflight" } as const;
    const held = holdAhead(sessionId, op, { phase: "counting" }, { now: clock(5) });
    expect(useMaintenanceStore.getState().op).toMatchObject({
      ...op,
      sessionId,
      progress: { phase: "counting" },
      startedAt: 5,
    });
    // Held: nothing else gets the lock meanwhile.
    expect(holdAhead(sessionId, op, { phase: "counting" })).toBeNull();
    let during: MaintenanceOp | null = null;
    await runMaintenance(
      sessionId,
      op,
      async () => {
        during = useMaintenanceStore.getState().op;
      },
      maintenanceDeps(),
      held ?? undefined,
    );
    expect(during).toMatchObject({ startedAt: 5 });
    expect(useMaintenanceStore.getState().op).toBeNull();
    const again = holdAhead(sessionId, op, { phase: "counting" });
    again?.release();
    again?.release();
    expect(useMaintenanceStore.getState().op).toBeNull();
  });

  it("models: the chat's model and the summarizer, or the operation's failure (no key)", async () => {
    const { sessionId } = await chat();
    const none = await runMaintenance(sessionId, { kind: "compaction", reason: "threshold" }, async (ctx) =>
      ctx.models(),
    );
    expect(none).toMatchObject({ kind: "failed", message: expect.stringContaining("API key") });
    expect(useUiStore.getState().notices.map((n) => n.text)).toEqual([
      expect.stringMatching(/^Auto-compaction failed: /),
    ]);
    settingsWithKeys({ summaryModel: { providerId: "openai", modelId: "gpt-4o-mini" } });
    const both = await runMaintenance(sessionId, { kind: "compaction", reason: "manual" }, async (ctx) => {
      const m = ctx.models();
      return "kind" in m ? m : { chat: m.chat.modelId, summarizer: m.summarizer.modelId };
    });
    expect(both).toEqual({ chat: DEFAULT_SETTINGS.defaultModel.modelId, summarizer: "gpt-4o-mini" });
  });

  it("settle: a failed job is the operation's failure, Cancel wins over any outcome, the summarizer's notices show", async () => {
    const { sessionId } = await chat();
    const failed = await runMaintenance(sessionId, { kind: "handoff", reason: "threshold" }, async (ctx) =>
      ctx.settle({ kind: "failed", error: "model said no", notices: ["Remote summarizer failed: 502"] }),
    );
    expect(failed).toEqual({ kind: "failed", message: "model said no" });
    expect(useUiStore.getState().notices.map((n) => n.text)).toEqual([
      "Remote summarizer failed: 502",
      "Auto-handoff failed: model said no",
    ]);
    const cancelled = await runMaintenance(sessionId, { kind: "compaction", reason: "manual" }, async (ctx) => {
      abortMaintenance();
      return ctx.settle({ kind: "done" as const, entry: {} });
    });
    expect(cancelled).toEqual({ kind: "cancelled" });
    const done = await runMaintenance(sessionId, { kind: "compaction", reason: "manual" }, async (ctx) =>
      ctx.settle({ kind: "done" as const, tokens: 3 }),
    );
    expect(done).toEqual({ kind: "done", tokens: 3 });
  });

  it("append stamps the entry (new id, this session, the parent, the clock) and writes it only if the leaf is still there", async () => {
    const { sessionId, leaf } = await chat();
    const summary = { type: "branch_summary" as const, fromId: leaf.id, summary: "gist", model: "m" };
    const stale = await runMaintenance(sessionId, { kind: "branch_summary", reason: "switch" }, async (ctx) =>
      ctx.append(summary, { parentId: leaf.id, ifLeafIs: "elsewhere" as EntryId }),
    );
    expect(stale).toBeNull();
    expect(await getEntries(sessionId)).toHaveLength(2);
    const written = await runMaintenance(
      sessionId,
      { kind: "branch_summary", reason: "switch" },
      async (ctx) => ctx.append(summary, { parentId: leaf.id, ifLeafIs: leaf.id }),
      maintenanceDeps({ now: clock(9) }),
    );
    expect(written).toMatchObject({ ...summary, sessionId, parentId: leaf.id, createdAt: 9 });
    expect((await getSession(sessionId))?.leafId).toBe((written as Entry).id);
  });
});
