import { describe, expect, it } from "vitest";
import { eid } from "../testing/entries";
import { graphEdges } from "./edges";

const node = (index: number, parent: number, onActivePath: boolean, summaryOf: string | null = null) => ({
  index,
  parent,
  onActivePath,
  summaryOf: summaryOf === null ? null : eid(summaryOf),
});

describe("graphEdges", () => {
  it("joins each node to its parent, active when both ends are on the active path", () => {
    const nodes = [node(0, -1, true), node(1, 0, true), node(2, 0, false)];
    expect(graphEdges(nodes, new Map())).toEqual([
      { from: 0, to: 1, kind: "tree", active: true },
      { from: 0, to: 2, kind: "tree", active: false },
    ]);
  });

  it("draws a branch summary to the node showing its branch's leaf, after the tree edges", () => {
    const nodes = [node(0, -1, true), node(1, 0, false), node(2, 0, true, "leaf")];
    const shown = new Map([[eid("leaf"), 1]]);
    expect(graphEdges(nodes, shown).at(-1)).toEqual({ from: 2, to: 1, kind: "summary", active: false });
  });

  it("no summary edge when the branch is not shown, or is shown by the summary itself", () => {
    const nodes = [node(0, -1, true), node(1, 0, true, "gone"), node(2, 0, true, "under")];
    const shown = new Map([[eid("under"), 2]]);
    expect(graphEdges(nodes, shown).filter((e) => e.kind === "summary")).toEqual([]);
  });
});
