import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appendEntries } from "../entries";
import { createSession, deleteSession, renameSession } from "../sessions";
import {
  assistantMessage,
  closeDb,
  compaction,
  freshDatabase,
  getDb,
  makeSession,
  userMessage,
} from "../testing/database";
import { createSearchService, type SearchService } from "./search-service";
import * as store from "./search-store";
import { clearSavedIndex, loadSavedSegment, savedSegments } from "./search-store";

// The real store, with a way to hold one segment's read (see "a query asked while a segment is read").
vi.mock("./search-store", async (actual) => {
  const real = await actual<typeof import("./search-store")>();
  return { ...real, loadSavedSegment: vi.fn(real.loadSavedSegment) };
});

const services: SearchService[] = [];
function service(options: Parameters<typeof createSearchService>[0] = {}): SearchService {
  const s = createSearchService({ live: false, pause: async () => {}, ...options });
  services.push(s);
  return s;
}

beforeEach(freshDatabase);
afterEach(() => {
  for (const s of services.splice(0)) s.stop();
  closeDb();
});

async function twoChats() {
  const trip = makeSession({ title: "Alps trip" });
  const t1 = userMessage(trip.id, null, "Plan a weekend in Zermatt");
  const t2 = assistantMessage(trip.id, t1.id, "Trains from Zurich are easiest.");
  await createSession({ ...trip, leafId: t2.id }, [t1, t2]);
  const bread = makeSession({ title: "Bread recipe" });
  const b1 = userMessage(bread.id, null, "How do I make it tangy?");
  await createSession({ ...bread, leafId: b1.id }, [b1]);
  return { trip, t1, t2, bread, b1 };
}

/**
 * The two chats indexed and saved in two segments (the bread chat's is 1, newest, read first; the
 * trip's 0), and a segment read the test ends itself (`read`).
 */
async function savedInTwoSegmentsAndARead() {
  await twoChats();
  const first = service({ segmentDocs: 2 });
  await first.refresh();
  await first.flush();
  vi.mocked(store.loadSavedSegment).mockClear();
  let read: (data: unknown) => void = () => {};
  const held = new Promise<unknown>((resolve) => {
    read = resolve;
  });
  return { held, read };
}

const found = async (s: SearchService, query: string) =>
  (await s.search(query))?.results.map((r) => [
    r.title,
    r.entryId,
    r.snippet.map((p) => (p.hit ? `[${p.text}]` : p.text)).join(""),
  ]);

describe("chat search service", () => {
  it("builds the index when none is saved, and answers with the chat's title, date and a highlighted snippet", async () => {
    const { t2 } = await twoChats();
    const s = service();
    await s.refresh();
    const answer = await s.search("zurich");
    expect(answer).toMatchObject({
      query: "zurich",
      total: 1,
      indexing: null,
      loading: null,
      results: [
        {
          title: "Alps trip",
          entryId: t2.id,
          kind: "message",
          role: "assistant",
          at: t2.createdAt,
          snippet: [
            { text: "Trains from ", hit: false },
            { text: "Zurich", hit: true },
            { text: " are easiest.", hit: false },
          ],
        },
      ],
    });
    expect(await found(s, "alps")).toEqual([["Alps trip", null, "[Alps] trip"]]);
  });

  it("keeps up incrementally with appends (a compaction too), renames and deletes", async () => {
    const { trip, t2, bread, b1 } = await twoChats();
    const s = service();
    await s.refresh();
    const reply = assistantMessage(bread.id, b1.id, "Use a rye sourdough starter.");
    await appendEntries(bread.id, [reply], { kind: "move", to: reply.id }, 50_000);
    const folded = compaction(trip.id, t2.id, "Chose Zermatt for the weekend");
    await appendEntries(trip.id, [folded], { kind: "move", to: folded.id }, 50_001);
    await s.refresh();
    expect(await found(s, "sourdough")).toEqual([["Bread recipe", reply.id, "Use a rye [sourdough] starter."]]);
    expect((await s.search("chose"))?.results.map((r) => r.kind)).toEqual(["compaction"]);

    await renameSession(bread.id, "Rye baking");
    await s.refresh();
    expect(await found(s, "recipe")).toEqual([]);
    expect((await s.search("sourdough"))?.results[0]?.title).toBe("Rye baking");

    await deleteSession(trip.id);
    await s.refresh();
    expect(await found(s, "zermatt")).toEqual([]);
  });

  it("saves the index, and a new start loads it instead of reading every entry again", async () => {
    await twoChats();
    const first = service();
    await first.refresh();
    await first.flush();
    expect(await savedSegments()).toEqual([0]);
    expect(await loadSavedSegment(0)).toBeDefined();

    const progress = vi.fn();
    const second = service({ onProgress: progress });
    await second.refresh();
    expect(progress).not.toHaveBeenCalled();
    expect(await found(second, "tangy")).toEqual([["Bread recipe", expect.any(String), "How do I make it [tangy]?"]]);
  });

  it("catches up on what was written while it was not running (the saved index is behind)", async () => {
    const { bread, b1 } = await twoChats();
    const first = service();
    await first.refresh();
    await first.flush();
    first.stop();
    const reply = assistantMessage(bread.id, b1.id, "Use a rye sourdough starter.");
    await appendEntries(bread.id, [reply], { kind: "move", to: reply.id }, 60_000);

    const second = service();
    await second.refresh();
    expect((await second.search("sourdough"))?.results.map((r) => r.entryId)).toEqual([reply.id]);
  });

  it("notices entries added without the chat's row looking different (same updatedAt), by the counts", async () => {
    const { bread, b1 } = await twoChats();
    const s = service();
    await s.refresh();
    const reply = assistantMessage(bread.id, b1.id, "Use a rye sourdough starter.");
    // Written as a clock set back would: updatedAt stays what it was.
    await appendEntries(bread.id, [reply], { kind: "keep" }, 0);
    await s.refresh();
    expect((await s.search("sourdough"))?.results.map((r) => r.entryId)).toEqual([reply.id]);
  });

  it("re-indexes the chats of a saved segment that is corrupt, and rebuilds a missing index", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await twoChats();
    await getDb().searchIndex.put({ key: "segment:0", data: { format: 2, index: "{not json", chats: {} }, savedAt: 1 });
    const s = service();
    await s.refresh();
    expect(await found(s, "tangy")).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      "A saved search index segment could not be read; its chats are indexed again.",
      expect.any(SyntaxError),
    );
    warn.mockRestore();
    // The corrupt row is replaced at the next save (the new segment has the next number).
    await s.flush();
    expect(await savedSegments()).toEqual([1]);
    await clearSavedIndex();
    const again = service();
    await again.refresh();
    expect(await found(again, "zermatt")).toHaveLength(1);
  });

  it("after a start, answers from the segments loaded so far (newest first) and says how far loading is", async () => {
    const { trip } = await twoChats();
    // Small segments: each chat in its own (the trip first, so the bread chat is the newer).
    const first = service({ segmentDocs: 2 });
    await first.refresh();
    await first.flush();
    expect(await savedSegments()).toEqual([1, 0]);
    let release: () => void = () => {};
    const paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    const second = service({ loadPause: () => paused });
    await vi.waitFor(async () => expect((await second.search("tangy"))?.loading).toEqual({ done: 1, total: 2 }));
    const partial = await second.search("tangy");
    expect(partial).toMatchObject({ total: 1, indexing: null, loading: { done: 1, total: 2 } });
    expect((await second.search("zermatt"))?.total).toBe(0);
    release();
    await second.refresh();
    const whole = await second.search("zermatt");
    expect(whole).toMatchObject({ total: 1, indexing: null, loading: null });
    expect(whole?.results.map((r) => r.sessionId)).toEqual([trip.id]);
  });

  it("a query asked while a saved segment is being read is answered before that segment is parsed", async () => {
    const { held, read } = await savedInTwoSegmentsAndARead();
    const real = await vi.importActual<typeof store>("./search-store");
    const older = await real.loadSavedSegment(0);
    vi.mocked(store.loadSavedSegment).mockImplementation((id) => (id === 0 ? held : real.loadSavedSegment(id)));
    try {
      const second = service();
      await vi.waitFor(() => expect(store.loadSavedSegment).toHaveBeenCalledWith(0));
      const asked = second.search("zermatt");
      read(older); // the read ends while the query is being answered: parsing waits for it
      expect(await asked).toMatchObject({ total: 0, loading: { done: 1, total: 2 } });
      await second.refresh();
      expect(await second.search("zermatt")).toMatchObject({ total: 1, loading: null });
    } finally {
      vi.mocked(store.loadSavedSegment).mockImplementation(real.loadSavedSegment);
    }
  });

  it("a query asked before any saved segment is in waits for the newest one instead of answering 'nothing yet'", async () => {
    const { held, read } = await savedInTwoSegmentsAndARead();
    const newest = await loadSavedSegment(1);
    vi.mocked(store.loadSavedSegment).mockImplementationOnce(() => held as Promise<unknown>);
    const second = service({ loadPause: () => new Promise<void>(() => {}) }); // loading stops after one
    await vi.waitFor(() => expect(store.loadSavedSegment).toHaveBeenCalledTimes(2));
    const asked = second.search("tangy");
    read(newest);
    // Answered early, it would have said "nothing found yet" (0 of 2 loaded).
    expect(await asked).toMatchObject({ total: 1, loading: { done: 1, total: 2 } });
  });

  it("while held, indexing stops at its next pause (queries are still answered) and goes on when released", async () => {
    await twoChats();
    const s = service({ live: false });
    s.hold(true);
    const refreshed = s.refresh();
    let done = false;
    void refreshed.then(() => {
      done = true;
    });
    // Answered meanwhile, from the index as it is (nothing yet), and saying it is still indexing.
    expect(await s.search("zermatt")).toMatchObject({ total: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    s.hold(false);
    await refreshed;
    expect(await s.search("zermatt")).toMatchObject({ total: 1 });
  });

  it("a hold that is never released ends by itself", async () => {
    await twoChats();
    const s = service({ live: false, holdMaxMs: 30 });
    s.hold(true);
    await s.refresh(); // would never resolve if the hold lasted
    expect(await s.search("zermatt")).toMatchObject({ total: 1 });
  });

  it("follows the database live: an append elsewhere is found without asking", async () => {
    const { bread, b1 } = await twoChats();
    const s = service({ live: true });
    await s.refresh();
    const reply = assistantMessage(bread.id, b1.id, "Fold in the quokka flour.");
    await appendEntries(bread.id, [reply], { kind: "move", to: reply.id }, 70_000);
    await vi.waitFor(async () => expect(await found(s, "quokka")).toHaveLength(1));
  });

  it("a query answered before the first catch-up says it is still indexing, so the page asks again", async () => {
    await twoChats();
    const s = service({ live: true });
    await s.ready;
    const early = await s.search("tangy");
    // Either found already, or not final: "no results" with nothing indexing would never be asked again.
    expect(early?.total === 1 || early?.indexing !== null).toBe(true);
    await s.refresh();
    expect(await s.search("tangy")).toMatchObject({ total: 1, indexing: null, loading: null });
  });

  it("keeps the entries it showed for the next queries, but never shows a deleted chat's", async () => {
    const { trip, t1 } = await twoChats();
    const s = service();
    await s.refresh();
    expect(await found(s, "zer")).toEqual([["Alps trip", t1.id, "Plan a weekend in [Zermatt]"]]);
    const reads = vi.spyOn(getDb().entries, "bulkGet");
    // The next letter: the same hit, shown from what was kept (and highlighted for the new word).
    expect(await found(s, "zerm")).toEqual([["Alps trip", t1.id, "Plan a weekend in [Zermatt]"]]);
    expect(reads).not.toHaveBeenCalled();
    // Deleted, and the index not told yet: the hit is still ranked, but its chat is gone.
    await deleteSession(trip.id);
    expect(await found(s, "zerm")).toEqual([]);
  });

  it("answers null to a query overtaken by a newer one", async () => {
    await twoChats();
    const s = service();
    await s.refresh();
    const [older, newer] = await Promise.all([s.search("tan", 1), s.search("tangy", 2)]);
    expect(older).toBeNull();
    expect(newer?.results).toHaveLength(1);
  });
});
