import { describe, expect, it } from "vitest";
import { count } from "../testing/compaction";
import { a, compaction, eid, linkPath, tool, u } from "../testing/entries";
import { entryTokensFrom } from "./entry-text";
import { selectKeptTurns } from "./kept-turns";

const entryTokens = entryTokensFrom(count);
const tokens = (n: number): string => "w".repeat(n * 4);

describe("selectKeptTurns", () => {
  it("keeps every user turn of the folded region, in order, and never tool results or blank turns", () => {
    const p = linkPath([
      u("u1", "fact one"),
      a("a1", "ok"),
      tool("t1", [{ type: "tool_result", callId: "c", text: "r", isError: false }]),
      u("u2", "   "),
      u("u3", "fact three"),
      a("a3", "ok"),
      u("u4", "kept region"),
    ]);
    const r = selectKeptTurns({
      path: p,
      previous: null,
      start: 0,
      firstKeptIndex: 6,
      entryTokens,
      maxTurnTokens: 1500,
      budgetTokens: 20_000,
    });
    expect(r.keptUserTurnIds).toEqual([eid("u1"), eid("u3")]);
    expect(r.evictedUserTurnIds).toEqual([]);
  });

  it("carries the previous compaction's kept set over (union)", () => {
    const p = linkPath([
      u("u0", "old but kept"),
      u("u1", "old, not kept"),
      a("a1", "x"),
      compaction("c1", { summary: "S", firstKept: "a1", kept: ["u0"] }),
      u("u2", "new"),
      a("a2", "y"),
    ]);
    const r = selectKeptTurns({
      path: p,
      previous: p[3]?.type === "compaction" ? p[3] : null,
      start: 2,
      firstKeptIndex: 5,
      entryTokens,
      maxTurnTokens: 1500,
      budgetTokens: 20_000,
    });
    expect(r.keptUserTurnIds).toEqual([eid("u0"), eid("u2")]);
  });

  it("folds an oversized paste instead of keeping it, and reports it", () => {
    const p = linkPath([u("u1", tokens(2000)), u("u2", "small"), a("a", "x")]);
    const r = selectKeptTurns({
      path: p,
      previous: null,
      start: 0,
      firstKeptIndex: 3,
      entryTokens,
      maxTurnTokens: 1500,
      budgetTokens: 20_000,
    });
    expect(r.keptUserTurnIds).toEqual([eid("u2")]);
    expect(r.oversized).toEqual([{ id: eid("u1"), tokens: 2000 }]);
  });

  it("evicts the oldest turns first to fit the budget, and reports them", () => {
    const p = linkPath([u("u1", tokens(400)), u("u2", tokens(400)), u("u3", tokens(400)), a("a", "x")]);
    const r = selectKeptTurns({
      path: p,
      previous: null,
      start: 0,
      firstKeptIndex: 4,
      entryTokens,
      maxTurnTokens: 1500,
      budgetTokens: 900,
    });
    expect(r.keptUserTurnIds).toEqual([eid("u2"), eid("u3")]);
    expect(r.evictedUserTurnIds).toEqual([eid("u1")]);
    expect(r.keptTokens).toBe(800);
  });
});
