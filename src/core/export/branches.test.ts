import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { a, at, compaction, eid, linkPath, tool, u } from "../testing/entries";
import { type BranchLine, buildBranchLines, entryPreview, formatCount, listOtherBranches } from "./branches";

const ids = (line: BranchLine) => line.entries.map((e) => e.id as string);

/** Every entry of every line, main line first, in document order. */
function allIds(main: BranchLine): string[] {
  return [ids(main), ...listOtherBranches(main).map((b) => ids(b.line))].flat();
}

/**
 *   u1 ── a1 ─┬─ u2 ── a2 ─┬─ u3          (a2 is the leaf; u3 and u3b lie past it)
 *             │            └─ u3b
 *             └─ u2b ─┬─ a2b
 *                     └─ a2c (newest)
 */
function tree(): Entry[] {
  return [
    at(u("u1", "one"), null, 1),
    at(a("a1", "two"), "u1", 2),
    at(u("u2", "three"), "a1", 3),
    at(a("a2", "four"), "u2", 4),
    at(u("u3", "five"), "a2", 5),
    at(u("u3b", "five again"), "a2", 6),
    at(u("u2b", "three again"), "a1", 7),
    at(a("a2b", "older"), "u2b", 8),
    at(a("a2c", "newer"), "u2b", 9),
  ];
}

describe("buildBranchLines", () => {
  it("makes the active path the main line and hangs every other entry off it once", () => {
    const main = buildBranchLines(tree(), eid("a2"));
    expect(ids(main)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(main.forks.map((f) => [f.at, ids(f.line)])).toEqual([
      [1, ["u2b", "a2c"]],
      [3, ["u3"]],
      [3, ["u3b"]],
    ]);
    expect(allIds(main).sort()).toEqual(
      tree()
        .map((e) => e.id as string)
        .sort(),
    );
  });

  it("numbers other branches in document order, sub-branches right after their branch", () => {
    const others = listOtherBranches(buildBranchLines(tree(), eid("a2")));
    expect(others.map((b) => [b.number, ids(b.line), b.from?.id, b.fromBranch, b.fromDepth])).toEqual([
      [1, ["u2b", "a2c"], "a1", 0, 2],
      [2, ["a2b"], "u2b", 1, 3],
      [3, ["u3"], "a2", 0, 4],
      [4, ["u3b"], "a2", 0, 4],
    ]);
  });

  it("hangs every root off an empty main line when there is no leaf", () => {
    const entries = [at(u("r1", "x"), null, 1), at(u("r2", "y"), null, 2), at(a("c", "z"), "r2", 3)];
    const main = buildBranchLines(entries, null);
    expect(main.entries).toEqual([]);
    expect(main.forks.map((f) => [f.at, ids(f.line)])).toEqual([
      [-1, ["r1"]],
      [-1, ["r2", "c"]],
    ]);
    expect(listOtherBranches(main).map((b) => [b.from, b.fromDepth])).toEqual([
      [null, 0],
      [null, 0],
    ]);
  });

  it("walks a 10,000-entry path without recursion", () => {
    const specs = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? u(`e${i}`, "q") : a(`e${i}`, "r")));
    const entries = linkPath(specs);
    const side = at(u("side", "other"), "e9998", 20_000);
    const main = buildBranchLines([...entries, side], eid("e9999"));
    expect(main.entries.length).toBe(10_000);
    expect(listOtherBranches(main).map((b) => [b.fromDepth, ids(b.line)])).toEqual([[9_999, ["side"]]]);
  });

  it("ends a line at a cycle instead of looping", () => {
    const entries = [at(u("x", "x"), "y", 1), at(a("y", "y"), "x", 2)];
    expect(ids(buildBranchLines(entries, eid("x")))).toEqual(["y", "x"]);
  });
});

describe("labels", () => {
  it("entryPreview is the entry's one-line title (the graph's), named by kind", () => {
    const [msg, call, summary] = linkPath([
      u("u1", "## short\n\n*text*"),
      tool("t1", [{ type: "tool_call", id: "c1", name: "read", args: {} }]),
      compaction("c1", { summary: "Standing facts: the user wants tea", firstKept: null }),
    ]);
    expect(entryPreview(msg!)).toBe("short text");
    expect(entryPreview(call!)).toBe("Tool call: read");
    expect(entryPreview(summary!)).toMatch(/^Compaction: Standing facts: the user wants tea/);
  });

  it("formatCount groups thousands the same in every locale", () => {
    expect([0, 999, 1000, 1234567].map(formatCount)).toEqual(["0", "999", "1,000", "1,234,567"]);
  });
});
