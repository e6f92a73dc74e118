import "fake-indexeddb/auto";
import { liveQuery } from "dexie";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionId } from "../core/session/ids";
import { saveDraft } from "./drafts";
import { appendEntries } from "./entries";
import { setLabel } from "./labels";
import { liveDrafts, liveEntries, liveLabels, liveSearch, liveSession, liveSessions, liveSettings } from "./live";
import { createSession } from "./sessions";
import { setSetting } from "./settings";
import { subscribeLive } from "./subscribe";
import { assistantMessage, closeDb, freshDatabase, makeSession, userMessage } from "./test-utils";

beforeEach(freshDatabase);
afterEach(closeDb);

/** Subscribes like useLiveQuery does; records every result. */
function watch<T>(querier: () => Promise<T>) {
  const results: T[] = [];
  const errors: unknown[] = [];
  const sub = liveQuery(querier).subscribe({ next: (v) => results.push(v), error: (e) => errors.push(e) });
  return { results, errors, stop: () => sub.unsubscribe() };
}

const settle = () => new Promise((r) => setTimeout(r, 30));

async function sessionWithRoot(title: string) {
  const s = makeSession({ title });
  const u = userMessage(s.id, null, `${title} hello`);
  await createSession({ ...s, leafId: u.id }, [u]);
  return { id: s.id as SessionId, u };
}

describe("live queriers", () => {
  it("a write in session A re-runs A's queries but not session B's", async () => {
    const a = await sessionWithRoot("A");
    const b = await sessionWithRoot("B");
    const bEntries = watch(() => liveEntries(b.id));
    const bLabels = watch(() => liveLabels(b.id));
    const bDrafts = watch(() => liveDrafts(b.id));
    const bSession = watch(() => liveSession(b.id));
    const aEntries = watch(() => liveEntries(a.id));
    const aDrafts = watch(() => liveDrafts(a.id));
    await settle();
    expect([bEntries, bLabels, bDrafts, bSession, aEntries, aDrafts].map((w) => w.results.length)).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);

    const reply = assistantMessage(a.id, a.u.id, "A reply");
    await appendEntries(a.id, [reply], { kind: "move", to: reply.id });
    await setLabel(a.u.id, "bookmark");
    await saveDraft({
      id: userMessage(a.id, null, "").id,
      sessionId: a.id,
      parentId: reply.id,
      ownerId: "p",
      content: [{ type: "text", text: "streaming" }],
      startedAt: 1,
      updatedAt: 2,
    });
    await settle();

    expect(aEntries.results.at(-1)).toHaveLength(2);
    expect(aDrafts.results.at(-1)).toHaveLength(1);
    expect([bEntries, bLabels, bDrafts, bSession].map((w) => w.results.length)).toEqual([1, 1, 1, 1]);
    for (const w of [bEntries, bLabels, bDrafts, bSession, aEntries, aDrafts]) {
      expect(w.errors).toEqual([]);
      w.stop();
    }
  });

  it("the session list, settings and search follow writes", async () => {
    const sessions = watch(() => liveSessions());
    const settings = watch(() => liveSettings());
    const search = watch(() => liveSearch("needle"));
    await settle();

    const a = await sessionWithRoot("has a needle");
    await setSetting("theme", "dark");
    await settle();

    expect(sessions.results.at(-1)?.map((s) => s.id)).toEqual([a.id]);
    expect(settings.results.at(-1)).toEqual({ theme: "dark" });
    expect(search.results.at(-1)).toEqual([a.id]);
    for (const w of [sessions, settings, search]) {
      expect(w.errors).toEqual([]);
      w.stop();
    }
  });
});

describe("subscribeLive", () => {
  it("delivers the current value, then each overlapping write, until unsubscribed", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const stop = subscribeLive(
      liveSettings,
      (v) => seen.push(v),
      (e) => seen.push({ error: e }),
    );
    await settle();
    await setSetting("a", 1);
    await settle();
    stop();
    await setSetting("b", 2);
    await settle();
    expect(seen).toEqual([{}, { a: 1 }]);
  });
});
