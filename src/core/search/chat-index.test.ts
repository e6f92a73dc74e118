import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { asSessionId, type SessionId } from "../session/ids";
import { a, branchSummary, compaction, handoff, linkPath, thinking, tool, u } from "../testing/entries";
import { ChatIndex, type ChatRow, INDEX_FORMAT } from "./chat-index";

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
    index.removeChat(trip.id);
    expect(index.query("zermatt").total).toBe(0);
    expect(index.query("alps").total).toBe(0);
    expect(ids(index.query("sourdough"))).toEqual(["b2"]);
    expect(index.size).toBe(3);
  });

  it("a chat recorded as incomplete is synced again", () => {
    const index = ChatIndex.empty();
    index.putChat(bread, false);
    expect(index.diff([bread]).changed).toEqual([bread]);
  });

  it("survives a serialize/load round trip with the same answers", () => {
    const index = indexWith([
      { row: trip, entries: tripEntries },
      { row: bread, entries: breadEntries },
    ]);
    index.removeChat(trip.id);
    const loaded = ChatIndex.load(JSON.parse(JSON.stringify(index.serialize())));
    expect(loaded.query("sourd")).toEqual(index.query("sourd"));
    expect(loaded.query("zermatt").total).toBe(0);
    expect(loaded.diff([bread])).toEqual({ changed: [], removed: [] });
  });

  it("refuses a corrupt or outdated serialized index (the caller rebuilds)", () => {
    const good = indexWith([{ row: bread, entries: breadEntries }]).serialize();
    expect(() => ChatIndex.load({ ...good, format: INDEX_FORMAT + 1 })).toThrow(/format/);
    expect(() => ChatIndex.load({ ...good, index: good.index.slice(0, 40) })).toThrow();
    expect(() => ChatIndex.load({ ...good, chats: {} })).toThrow(/does not match/);
  });
});
