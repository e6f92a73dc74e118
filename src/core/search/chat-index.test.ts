import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { asSessionId, type SessionId } from "../session/ids";
import { a, branchSummary, compaction, handoff, linkPath, thinking, tool, u } from "../testing/entries";
import { ChatIndex, type ChatRow, INDEX_FORMAT, type SegmentChanges } from "./chat-index";

const chat = (id: string, title: string, updatedAt = 1): ChatRow => ({ id: asSessionId(id), title, updatedAt });
const inChat = (sessionId: SessionId, entries: Entry[]): Entry[] => entries.map((e) => ({ ...e, sessionId }));

function indexWith(rows: Array<{ row: ChatRow; entries: Entry[] }>): ChatIndex {
  const index = ChatIndex.empty();
  for (const { row, entries } of rows) {
    index.putChat(row, true);
    index.addEntries(row.id, inChat(row.id, entries));
  }
  return index;
}

const trip = chat("chat-trip", "Alps trip");
const bread = chat("chat-bread", "Bread recipe");
const tripEntries = linkPath([
  u("t1", "Plan a weekend trip to Zermatt"),
  a("t2", "Trains from Zurich are easiest; Zermatt is car-free."),
  compaction("t3", { summary: "Chose Zermatt; trains from Zurich", firstKept: "t2" }),
  u("t4", "What about hotels?"),
  branchSummary("t5", "Explored flying into Geneva"),
]);
const breadEntries = linkPath([u("b1", "How do I make it tangy?"), a("b2", "Use a rye sourdough starter.")]);
/** A new index from `index`'s saved segments, as after a reload. */
function reloaded(index: ChatIndex): ChatIndex {
  const out = ChatIndex.empty();
  for (const { id, data } of index.takeChanges().put) out.loadSegment(id, JSON.parse(JSON.stringify(data)));
  return out;
}
/** A new index from saved segments. */
function reloadedFrom(put: SegmentChanges["put"]): ChatIndex {
  const out = ChatIndex.empty();
  for (const { id, data } of put) out.loadSegment(id, JSON.parse(JSON.stringify(data)));
  return out;
}
const ids = ({ hits }: ReturnType<ChatIndex["query"]>) => hits.map((h) => h.entryId ?? `title:${h.sessionId}`);

describe("ChatIndex", () => {
  it("finds messages, compactions, branch summaries and handoffs by their words, with their chat", () => {
    const other = chat("chat-other", "Part two");
    const index = indexWith([
      { row: trip, entries: tripEntries },
      { row: bread, entries: breadEntries },
      { row: other, entries: linkPath([handoff("h1", "## Goal\nA weekend in Zermatt")]) },
    ]);
    expect(index.query("sourdough").hits.map((h) => [h.sessionId, h.entryId])).toEqual([[bread.id, "b2"]]);
    expect(ids(index.query("geneva"))).toEqual(["t5"]);
    expect(new Set(ids(index.query("zermatt")))).toEqual(new Set(["t1", "t2", "t3", "h1"]));
    expect(index.query("nothing-like-it")).toEqual({ hits: [], total: 0 });
    expect(index.query("  ")).toEqual({ hits: [], total: 0 });
  });

  it("looks through the same words as Copy text and the graph search: tool calls and results, never thinking", () => {
    const index = indexWith([
      {
        row: bread,
        entries: linkPath([
          a("k1", [{ type: "tool_call", id: "c1", name: "fetch_quokka", args: {} }]),
          tool("k2", [{ type: "tool_result", callId: "c1", text: "Result: ZANZIBAR", isError: false }]),
          a("k3", [thinking("zebrafish in thoughts only"), { type: "text", text: "ok" }]),
        ]),
      },
    ]);
    expect(ids(index.query("fetch_quokka"))).toEqual(["k1"]);
    expect(ids(index.query("zanzibar"))).toEqual(["k2"]);
    expect(index.query("zebrafish").total).toBe(0);
  });

  it("finds a chat by its title (entryId null)", () => {
    const index = indexWith([{ row: trip, entries: tripEntries }]);
    expect(index.query("alps").hits).toEqual([expect.objectContaining({ sessionId: trip.id, entryId: null })]);
  });

  it("ranks the entry where the words are densest first (BM25) and wants every word (AND)", () => {
    const index = indexWith([
      {
        row: trip,
        entries: linkPath([
          u("x1", "zermatt once, among many many other words about travel and packing and the weather"),
          a("x2", "Zermatt, Zermatt: all about Zermatt"),
          u("x3", "zermatt hotels"),
        ]),
      },
    ]);
    expect(ids(index.query("zermatt"))[0]).toBe("x2");
    expect(ids(index.query("zermatt hotels"))).toEqual(["x3"]);
  });

  it("matches a prefix while the word is being typed", () => {
    const index = indexWith([{ row: bread, entries: breadEntries }]);
    expect(ids(index.query("sourd"))).toEqual(["b2"]);
    expect(index.query("sourd").hits[0]?.terms).toEqual(["sourdough"]);
  });

  it("gives the best hits up to a limit, and how many there are", () => {
    const index = indexWith([{ row: trip, entries: tripEntries }]);
    const { hits, total } = index.query("zermatt", 2);
    expect(hits).toHaveLength(2);
    expect(total).toBe(3);
    expect(ids(index.query("zermatt", 2))).toEqual(ids(index.query("zermatt")).slice(0, 2));
  });

  it("a lone letter matches only itself, not every word it begins", () => {
    const index = indexWith([{ row: bread, entries: breadEntries }]);
    expect(index.query("s").total).toBe(0);
    expect(ids(index.query("so"))).toEqual(["b2"]);
  });

  it("forgives a typo in a longer word (fuzzy)", () => {
    const index = indexWith([{ row: bread, entries: breadEntries }]);
    expect(ids(index.query("sourdoguh"))).toEqual(["b2"]);
    expect(ids(index.query("surdough"))).toEqual(["b2"]);
  });

  it("finds Chinese and Japanese text by any part of it", () => {
    const cjk = chat("chat-cjk", "学习笔记");
    const index = indexWith([
      {
        row: cjk,
        entries: linkPath([
          u("c1", "我们今天学习机器学习的基础知识"),
          a("c2", "東京タワーへ行きましょう"),
          u("c3", "深度学习"),
        ]),
      },
    ]);
    expect(ids(index.query("机器学习"))).toEqual(["c1"]);
    expect(new Set(ids(index.query("学习")))).toEqual(new Set(["c1", "c3", "title:chat-cjk"]));
    expect(ids(index.query("タワー"))).toEqual(["c2"]);
    // One character: the pair it starts, or a run's last character.
    expect(ids(index.query("塔"))).toEqual([]);
    expect(ids(index.query("京"))).toEqual(["c2"]);
    expect(ids(index.query("识"))).toEqual(["c1"]);
  });

  it("is kept current incrementally: new entries are found, entries already in are not added twice", () => {
    const index = indexWith([{ row: bread, entries: breadEntries.slice(0, 1) }]);
    expect(index.query("sourdough").total).toBe(0);
    const later = { ...bread, updatedAt: 2 };
    expect(index.diff([later]).changed).toEqual([later]);
    index.putChat(later, true);
    index.addEntries(bread.id, inChat(bread.id, breadEntries));
    expect(ids(index.query("sourdough"))).toEqual(["b2"]);
    expect(index.indexed(bread.id)?.entryIds).toEqual(["b1", "b2"]);
    expect(index.diff([later])).toEqual({ changed: [], removed: [] });
  });

  it("re-indexes a renamed chat's title", () => {
    const index = indexWith([{ row: bread, entries: breadEntries }]);
    const renamed = { ...bread, title: "Rye baking", updatedAt: 2 };
    expect(index.diff([renamed]).changed).toEqual([renamed]);
    index.putChat(renamed, true);
    expect(index.query("recipe").total).toBe(0);
    expect(index.query("baking").hits).toEqual([expect.objectContaining({ sessionId: bread.id, entryId: null })]);
  });

  it("removes a deleted chat: its entries and title are no longer found", () => {
    const index = indexWith([
      { row: trip, entries: tripEntries },
      { row: bread, entries: breadEntries },
    ]);
    expect(index.diff([bread]).removed).toEqual([trip.id]);
    // Asked before too: what a query keeps for the next one (rank.ts's columns) must not outlive the change.
    expect(index.query("zermatt").total).toBe(3);
    index.removeChat(trip.id);
    expect(index.query("zermatt").total).toBe(0);
    expect(index.query("alps").total).toBe(0);
    expect(ids(index.query("sourdough"))).toEqual(["b2"]);
    expect(index.size).toBe(3);
  });

  it("a chat recorded as incomplete is caught up again", () => {
    const index = ChatIndex.empty();
    index.putChat(bread, false);
    expect(index.diff([bread]).changed).toEqual([bread]);
  });

  it("survives a save/load round trip of its segments with the same answers", () => {
    const index = indexWith([
      { row: trip, entries: tripEntries },
      { row: bread, entries: breadEntries },
    ]);
    index.removeChat(trip.id);
    const loaded = reloaded(index);
    expect(loaded.query("sourd")).toEqual(index.query("sourd"));
    expect(loaded.query("zermatt").total).toBe(0);
    expect(loaded.diff([bread])).toEqual({ changed: [], removed: [] });
    expect(loaded.changed).toBe(false);
  });

  it("refuses a corrupt, outdated or overlapping segment (the caller forgets it and re-indexes its chats)", () => {
    const [good] = indexWith([{ row: bread, entries: breadEntries }]).takeChanges().put;
    const data = good!.data;
    expect(() => ChatIndex.empty().loadSegment(0, { ...data, format: INDEX_FORMAT + 1 })).toThrow(/format/);
    expect(() => ChatIndex.empty().loadSegment(0, { format: 1, index: "{}", chats: {} })).toThrow(/format/);
    expect(() => ChatIndex.empty().loadSegment(0, { ...data, index: data.index.slice(0, 40) })).toThrow();
    expect(() => ChatIndex.empty().loadSegment(0, { ...data, chats: {} })).toThrow(/does not match/);
    expect(() => ChatIndex.empty().loadSegment(0, undefined)).toThrow(/format/);
    const twice = ChatIndex.empty();
    twice.loadSegment(0, data);
    expect(() => twice.loadSegment(1, data)).toThrow(/overlap/);
  });
});

describe("ChatIndex segments", () => {
  const many = (n: number, words: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => ({
      row: chat(`chat-${i}`, `Chat ${i}`, 100 + i),
      entries: linkPath([u(`m${i}`, words(i)), a(`r${i}`, `reply ${i}`)]).map((e, j) => ({
        ...e,
        createdAt: 1_000 + i * 10 + j,
      })),
    }));

  it("cuts the index into segments of whole chats, new chats joining the newest", () => {
    const index = ChatIndex.empty(7);
    for (const { row, entries } of many(5, (i) => `note ${i}`)) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    // 3 documents per chat (title and two entries): a segment takes chats until it holds 7 or more.
    expect(index.segmentCount).toBe(2);
    const { put, removed } = index.takeChanges();
    expect(put.map((p) => Object.keys(p.data.chats))).toEqual([
      ["chat-0", "chat-1", "chat-2"],
      ["chat-3", "chat-4"],
    ]);
    expect(removed).toEqual([]);
    expect(index.changed).toBe(false);
  });

  it("a change marks only its segment for saving; an emptied segment is deleted", () => {
    const index = ChatIndex.empty(7);
    const chats = many(5, (i) => `note ${i}`);
    for (const { row, entries } of chats) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    index.takeChanges();
    const first = chats[0]!;
    index.addEntries(first.row.id, inChat(first.row.id, linkPath([u("late", "a late word")])));
    expect(index.takeChanges().put.map((p) => p.id)).toEqual([0]);
    index.removeChat(asSessionId("chat-3"));
    index.removeChat(asSessionId("chat-4"));
    expect(index.takeChanges()).toEqual({ put: [], removed: [1] });
    // The next new chat opens a new segment (never reusing a number still saved).
    index.putChat(chat("chat-new", "New", 1), true);
    expect(index.takeChanges().put.map((p) => p.id)).toEqual([2]);
  });

  it("ranks across segments exactly as one index would (statistics summed), ties newer first", () => {
    const chats = many(12, (i) => (i % 3 === 0 ? "glacier glacier walk" : "glacier walk in the long valley"));
    const one = ChatIndex.empty(1_000);
    const split = ChatIndex.empty(4);
    for (const index of [one, split])
      for (const { row, entries } of chats) {
        index.putChat(row, true);
        index.addEntries(row.id, inChat(row.id, entries));
      }
    expect(split.segmentCount).toBeGreaterThan(3);
    const a1 = one.query("glacier", 5);
    const a2 = split.query("glacier", 5);
    expect(a2.total).toBe(12);
    expect(a2.hits.map((h) => [h.entryId, h.score.toFixed(10)])).toEqual(
      a1.hits.map((h) => [h.entryId, h.score.toFixed(10)]),
    );
    // The densest (every third chat's "glacier glacier") first, and among equals the newest.
    expect(a2.hits.map((h) => h.entryId)).toEqual(["m9", "m6", "m3", "m0", "m11"]);
  });

  it("a failed save's changes are handed over again", () => {
    const index = ChatIndex.empty(7);
    for (const { row, entries } of many(3, (i) => `note ${i}`)) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    const changes = index.takeChanges();
    index.keepChanges(changes);
    expect(index.takeChanges().put.map((p) => p.id)).toEqual(changes.put.map((p) => p.id));
  });

  it("written a slice at a time, a segment that changes meanwhile is left for the next save", () => {
    const index = ChatIndex.empty(7);
    const chats = many(5, (i) => `note ${i}`);
    for (const { row, entries } of chats) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    const steps = index.serializeChanges();
    expect(steps.next().done).toBe(false); // paused inside the first segment (it is tiny, but one pause per segment)
    const first = chats[0]!;
    index.addEntries(first.row.id, inChat(first.row.id, linkPath([u("late", "a late word")])));
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value.put.map((p) => p.id)).toEqual([1]);
    expect(index.changed).toBe(true);
    const next = index.takeChanges();
    expect(next.put.map((p) => p.id)).toEqual([0]);
    expect(reloadedFrom([...step.value.put, ...next.put]).query("late").total).toBe(1);
  });

  it("hands changed segments over a few at a time when asked to", () => {
    const index = ChatIndex.empty(7);
    for (const { row, entries } of many(5, (i) => `note ${i}`)) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    expect(index.takeChanges(1).put.map((p) => p.id)).toEqual([0]);
    expect(index.changed).toBe(true);
    expect(index.takeChanges(1).put.map((p) => p.id)).toEqual([1]);
    expect(index.changed).toBe(false);
  });

  it("prepares for the first query once a word is common, without changing any answer", () => {
    const index = ChatIndex.empty();
    const chats = many(1_100, (i) => `glacier walk ${i % 7 === 0 ? "meadow" : "valley"}`);
    for (const { row, entries } of chats.slice(0, 20)) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    expect(index.prepare()).toBe(false); // nothing common enough yet
    for (const { row, entries } of chats.slice(20)) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    const before = ["glacier", "walk meadow", "reply 7", "zzz"].map((q) => index.query(q, 10));
    expect(index.prepare()).toBe(true);
    expect(["glacier", "walk meadow", "reply 7", "zzz"].map((q) => index.query(q, 10))).toEqual(before);
  });

  it("loads segments in any order (newest first after a reload) and searches what is loaded", () => {
    const index = ChatIndex.empty(7);
    for (const { row, entries } of many(5, (i) => `note ${i} ${i < 3 ? "early" : "late"}`)) {
      index.putChat(row, true);
      index.addEntries(row.id, inChat(row.id, entries));
    }
    const { put } = index.takeChanges();
    const loading = ChatIndex.empty(7);
    loading.loadSegment(put[1]!.id, put[1]!.data);
    expect(loading.query("late").total).toBe(2);
    expect(loading.query("early").total).toBe(0);
    loading.loadSegment(put[0]!.id, put[0]!.data);
    expect(loading.query("early").total).toBe(3);
    // New chats still go to the newest segment.
    loading.putChat(chat("chat-new", "New", 1), true);
    expect(loading.takeChanges().put.map((p) => p.id)).toEqual([1]);
  });
});
