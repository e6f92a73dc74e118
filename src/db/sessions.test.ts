import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newSessionId } from "../core/session/ids";
import { getEntries } from "./entries";
import { DanglingParentError, EntryNotInSessionError, SessionNotFoundError } from "./errors";
import { getLabels, setLabel } from "./labels";
import { recordMemoryCheckCost } from "./memory-check-costs";
import { saveCheckpoint } from "./reply-checkpoints";
import {
  createSession,
  deleteSession,
  getSession,
  listSessions,
  renameSession,
  setAutoTitle,
  updateSession,
} from "./sessions";
import { assistantMessage, closeDb, freshDatabase, makeSession, snapshot, userMessage } from "./testing/database";
import { getTokenCounts, putTokenCounts } from "./token-counts";

beforeEach(freshDatabase);
afterEach(closeDb);

describe("createSession", () => {
  it("writes the session and its first entries together", async () => {
    const session = makeSession();
    const u = userMessage(session.id, null, "hello");
    await createSession({ ...session, leafId: u.id }, [u]);
    expect(await getSession(session.id)).toEqual({ ...session, leafId: u.id });
    expect(await getEntries(session.id)).toEqual([u]);
  });

  it("writes nothing when an entry is invalid", async () => {
    const session = makeSession();
    const u = userMessage(session.id, null, "hello");
    const orphan = assistantMessage(session.id, userMessage(session.id, null, "never stored").id, "x");
    await expect(createSession({ ...session, leafId: u.id }, [u, orphan])).rejects.toBeInstanceOf(DanglingParentError);
    expect(await snapshot()).toEqual(await emptySnapshot());
  });

  it("refuses a leaf that is not one of its entries", async () => {
    const session = makeSession();
    const u = userMessage(session.id, null, "hello");
    const leafId = userMessage(session.id, null, "elsewhere").id;
    await expect(createSession({ ...session, leafId }, [u])).rejects.toBeInstanceOf(EntryNotInSessionError);
    expect(await getSession(session.id)).toBeUndefined();
  });
});

async function emptySnapshot() {
  const snap = await snapshot();
  return Object.fromEntries(Object.keys(snap).map((k) => [k, []]));
}

describe("listSessions", () => {
  it("lists the most recently updated first", async () => {
    const old = makeSession({ title: "old", updatedAt: 1_000 });
    const newest = makeSession({ title: "newest", updatedAt: 3_000 });
    const middle = makeSession({ title: "middle", updatedAt: 2_000 });
    for (const s of [old, newest, middle]) await createSession(s);
    expect((await listSessions()).map((s) => s.title)).toEqual(["newest", "middle", "old"]);
  });
});

describe("titles", () => {
  it("renameSession sets a user title, which setAutoTitle never replaces", async () => {
    const s = makeSession();
    await createSession(s);
    expect(await setAutoTitle(s.id, "Auto title")).toBe(true);
    expect(await getSession(s.id)).toMatchObject({ title: "Auto title", titleSource: "auto" });

    await renameSession(s.id, "Mine");
    await renameSession(s.id, "Mine"); // same title again: found, not an error
    expect(await setAutoTitle(s.id, "Better auto title")).toBe(false);
    expect(await getSession(s.id)).toMatchObject({ title: "Mine", titleSource: "user" });
  });

  it("renaming a missing session throws; auto-titling one is a quiet no-op", async () => {
    await expect(renameSession(newSessionId(), "x")).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await setAutoTitle(newSessionId(), "x")).toBe(false);
  });
});

describe("updateSession", () => {
  it("sets, keeps and clears the overrides", async () => {
    const s = makeSession();
    await createSession(s);
    await updateSession(s.id, { systemPrompt: "Be terse.", model: { providerId: "anthropic", modelId: "m1" } });
    expect(await getSession(s.id)).toMatchObject({
      systemPrompt: "Be terse.",
      model: { providerId: "anthropic", modelId: "m1" },
    });

    await updateSession(s.id, { model: null });
    const afterClear = await getSession(s.id);
    expect(afterClear?.systemPrompt).toBe("Be terse.");
    expect(afterClear && "model" in afterClear).toBe(false);

    await updateSession(s.id, { systemPrompt: null });
    expect(await getSession(s.id)).toEqual(s);
  });

  it("throws for a missing session", async () => {
    await expect(updateSession(newSessionId(), { systemPrompt: "x" })).rejects.toBeInstanceOf(SessionNotFoundError);
  });
});

describe("deleteSession", () => {
  async function populatedSession(title: string) {
    const session = makeSession({ title });
    const u = userMessage(session.id, null, `${title} question`);
    const a = assistantMessage(session.id, u.id, `${title} answer`);
    await createSession({ ...session, leafId: a.id }, [u, a]);
    await setLabel(u.id, `${title} label`);
    await putTokenCounts([
      { entryId: u.id, encoding: "cl100k_base", count: 3 },
      { entryId: u.id, encoding: "o200k_base", count: 4 },
      { entryId: a.id, encoding: "cl100k_base", count: 5 },
    ]);
    await saveCheckpoint({
      id: userMessage(session.id, null, "").id,
      sessionId: session.id,
      parentId: a.id,
      ownerId: "page-1",
      content: [{ type: "text", text: "partial" }],
      startedAt: 1,
      updatedAt: 2,
    });
    await recordMemoryCheckCost({
      id: `${title}-check`,
      sessionId: session.id,
      compactionId: a.id,
      createdAt: 3,
      usage: [{ model: "gpt-4o", usage: { input: 10, output: 1 } }],
    });
    return { session, u, a };
  }

  it("removes everything of that session and nothing of another", async () => {
    const doomed = await populatedSession("doomed");
    const kept = await populatedSession("kept");
    const before = await snapshot();

    await deleteSession(doomed.session.id);

    const after = await snapshot();
    const belongsToKept = (row: unknown): boolean => {
      const r = row as { id?: string; sessionId?: string; entryId?: string };
      return (
        r.id === kept.session.id ||
        r.sessionId === kept.session.id ||
        r.entryId === kept.u.id ||
        r.entryId === kept.a.id
      );
    };
    for (const [table, rows] of Object.entries(before)) {
      expect(after[table], table).toEqual(rows.filter(belongsToKept));
    }
    expect(after.tokenCounts).toHaveLength(3);
    expect(after.labels).toHaveLength(1);
    expect(after.drafts).toHaveLength(1);
    expect(after.memoryCheckCosts?.map((r) => (r as { id: string }).id)).toEqual(["kept-check"]);
    expect(await getLabels(kept.session.id)).toEqual(new Map([[kept.u.id, "kept label"]]));
    expect(await getTokenCounts([doomed.u.id, kept.u.id], "cl100k_base")).toEqual(new Map([[kept.u.id, 3]]));
  });

  it("deleting a missing session is a no-op", async () => {
    await populatedSession("kept");
    const before = await snapshot();
    await deleteSession(newSessionId());
    expect(await snapshot()).toEqual(before);
  });
});
