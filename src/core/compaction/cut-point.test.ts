import { describe, expect, it } from "vitest";
import type { Block } from "../session/entries";
import { count } from "../testing/compaction";
import { a, compaction, eid, linkPath, tool, u } from "../testing/entries";
import { cutAfterEntry, findCutPoint, foldableRegion, legalCuts } from "./cut-point";
import { entryTokensFrom } from "./entry-text";

const tokens = entryTokensFrom(count);
const call = (id: string): Block => ({ type: "tool_call", id, name: "read", args: { path: "x" } });
const result = (id: string, text = "ok"): Block => ({ type: "tool_result", callId: id, text, isError: false });
const big = (n: number): string => "x".repeat(n * 4); // n tokens with the estimate

describe("foldableRegion", () => {
  it("starts at the root without a compaction", () => {
    expect(foldableRegion(linkPath([u("u1", "hi"), a("a1", "yo")]))).toMatchObject({ start: 0, previous: null });
  });

  it("starts at the latest compaction's firstKeptEntryId (iterative: nothing it kept is skipped)", () => {
    const p = linkPath([
      u("u1", "1"),
      a("a1", "2"),
      compaction("c1", { summary: "S1", firstKept: "a1" }),
      u("u2", "3"),
      a("a2", "4"),
      compaction("c2", { summary: "S2", firstKept: "u2" }),
      u("u3", "5"),
    ]);
    const r = foldableRegion(p);
    expect(r.start).toBe(3);
    expect(r.previous?.id).toBe(eid("c2"));
  });

  it("starts after the compaction when firstKeptEntryId is null or not on the path (as buildContext)", () => {
    const p1 = linkPath([u("u1", "1"), compaction("c", { summary: "S", firstKept: null }), u("u2", "2")]);
    expect(foldableRegion(p1).start).toBe(2);
    const p2 = linkPath([u("u1", "1"), compaction("c", { summary: "S", firstKept: "gone" }), u("u2", "2")]);
    expect(foldableRegion(p2).start).toBe(2);
  });
});

describe("findCutPoint: cut only at turn boundaries", () => {
  it("keeps the newest keepRecentTokens and cuts at a user message", () => {
    const p = linkPath([u("u1", big(100)), a("a1", big(100)), u("u2", big(100)), a("a2", big(100))]);
    const cut = findCutPoint(p, { start: 0, keepRecentTokens: 150, entryTokens: tokens });
    expect(cut).toEqual({ firstKeptIndex: 2, turnStartIndex: null });
  });

  it("returns null when everything fits in keepRecentTokens (nothing to compact)", () => {
    const p = linkPath([u("u1", big(10)), a("a1", big(10))]);
    expect(findCutPoint(p, { start: 0, keepRecentTokens: 1000, entryTokens: tokens })).toBeNull();
  });

  it("never starts the kept region at a tool result: it stays with its call", () => {
    const p = linkPath([
      u("u1", big(50)),
      a("a1", [{ type: "text", text: "reading" }, call("c1")]),
      tool("t1", [result("c1", big(300))]),
      a("a2", big(5)),
    ]);
    // The budget is reached inside t1: the first legal point at or after it is a2.
    const cut = findCutPoint(p, { start: 0, keepRecentTokens: 100, entryTokens: tokens });
    expect(cut?.firstKeptIndex).toBe(3);
    expect(p[cut?.firstKeptIndex ?? 0]?.id).toBe(eid("a2"));
  });

  it("folds everything when the newest call's result alone exceeds the budget (never keeps more)", () => {
    const p = linkPath([
      u("u1", big(50)),
      a("a0", big(50)),
      a("a1", [call("c1")]),
      tool("t1", [result("c1", big(300))]),
    ]);
    const cut = findCutPoint(p, { start: 0, keepRecentTokens: 100, entryTokens: tokens });
    expect(cut).toEqual({ firstKeptIndex: 4, turnStartIndex: null });
  });

  it("never cuts between a tool call and its result, even with an assistant message in between", () => {
    const p = linkPath([
      u("u1", big(50)),
      a("a1", [call("c1")]),
      a("a2", big(200)), // an assistant message while c1 is still open
      tool("t1", [result("c1")]),
      a("a3", big(10)),
    ]);
    const legal = legalCuts(p, 0);
    expect([0, 1, 2, 3, 4].map(legal)).toEqual([true, true, false, false, true]);
    const cut = findCutPoint(p, { start: 0, keepRecentTokens: 150, entryTokens: tokens });
    expect(cut?.firstKeptIndex).toBe(4);
  });

  it("reports a split turn when the cut falls inside a long turn", () => {
    const steps = Array.from({ length: 6 }, (_, i) => [
      a(`a${i}`, [{ type: "text", text: big(40) }, call(`c${i}`)]),
      tool(`t${i}`, [result(`c${i}`, big(40))]),
    ]).flat();
    const p = linkPath([u("u0", "hello"), a("a-", "hi"), u("u1", "refactor everything"), ...steps]);
    const cut = findCutPoint(p, { start: 0, keepRecentTokens: 200, entryTokens: tokens });
    expect(cut).not.toBeNull();
    expect(p[cut?.firstKeptIndex ?? 0]?.type).toBe("message");
    expect(cut?.turnStartIndex).toBe(2); // u1 starts the turn whose prefix is summarized separately
  });

  it("does not report a split turn when the turn started before the region", () => {
    const p = linkPath([
      u("u1", "go"),
      a("a1", big(100)),
      compaction("c", { summary: "S", firstKept: "a1" }),
      a("a2", big(100)),
      a("a3", big(100)),
    ]);
    const start = foldableRegion(p).start;
    const cut = findCutPoint(p, { start, keepRecentTokens: 150, entryTokens: tokens });
    expect(cut).toEqual({ firstKeptIndex: 3, turnStartIndex: null });
  });

  it("keepRecentTokens 0 folds everything", () => {
    const p = linkPath([u("u1", "a"), a("a1", "b")]);
    expect(findCutPoint(p, { start: 0, keepRecentTokens: 0, entryTokens: tokens })).toEqual({
      firstKeptIndex: 2,
      turnStartIndex: null,
    });
  });
});

describe("cutAfterEntry (compact up to here)", () => {
  const p = linkPath([
    u("u1", "one"),
    a("a1", [call("c1")]),
    tool("t1", [result("c1")]),
    a("a2", "two"),
    u("u2", "three"),
    a("a3", "four"),
  ]);

  it("keeps from the entry after the chosen one, ignoring keepRecentTokens", () => {
    expect(cutAfterEntry(p, 0, eid("a2"))).toEqual({ ok: true, cut: { firstKeptIndex: 4, turnStartIndex: null } });
  });

  it("moves forward past tool results so a call keeps its result", () => {
    const r = cutAfterEntry(p, 0, eid("a1"));
    expect(r).toEqual({ ok: true, cut: { firstKeptIndex: 3, turnStartIndex: 0 } });
  });

  it("folds everything when the chosen entry is the leaf", () => {
    expect(cutAfterEntry(p, 0, eid("a3"))).toEqual({ ok: true, cut: { firstKeptIndex: 6, turnStartIndex: null } });
  });

  it("refuses entries off the path or already folded", () => {
    expect(cutAfterEntry(p, 0, eid("nope")).ok).toBe(false);
    expect(cutAfterEntry(p, 3, eid("u1")).ok).toBe(false);
  });
});
