import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { buildTreeIndex, pathToRoot } from "../session/tree";
import { a, at, branchSummary, eid, linkPath, u } from "../testing/entries";
import { type Walk, walkGraph } from "./walk";

/**
 * u1 - a1 - u2 - a2      (leaf a2)
 *           \- a2b
 *      \- u2b
 */
function forked(): Entry[] {
  return [
    ...linkPath([u("u1", "one"), a("a1", "two"), u("u2", "three")]),
    at(a("a2", "four"), "u2", 10),
    at(a("a2b", "four again"), "u2", 11),
    at(u("u2b", "three again"), "a1", 12),
  ];
}

const keys = (w: Walk) => w.nodes.map((n) => n.key);
const parentKey = (w: Walk, key: string) => {
  const n = w.nodes[w.byKey.get(key)!]!;
  return n.parent < 0 ? null : w.nodes[n.parent]!.key;
};

describe("walkGraph", () => {
  it("numbers nodes parents first, children oldest first, and leaves them unplaced", () => {
    const entries = forked();
    const index = buildTreeIndex(entries);
    const w = walkGraph(index, pathToRoot(index, eid("a2")), { leafId: eid("a2") });
    expect(keys(w)).toEqual(["u1", "a1", "u2", "a2", "a2b", "u2b"]);
    for (const n of w.nodes) {
      expect(n.parent).toBeLessThan(n.index);
      expect(w.parents[n.index]).toBe(n.parent);
      expect(w.children[n.index]).toBe(n.children);
      expect([n.x, n.y]).toEqual([0, 0]);
    }
    expect(w.roots).toEqual([0]);
    expect(w.nodes.map((n) => n.depth)).toEqual([0, 1, 2, 3, 3, 2]);
  });

  it("marks the active path it is given, and the leaf", () => {
    const entries = forked();
    const index = buildTreeIndex(entries);
    const w = walkGraph(index, pathToRoot(index, eid("u2b")), { leafId: eid("u2b") });
    expect(w.nodes.filter((n) => n.onActivePath).map((n) => n.key)).toEqual(["u1", "a1", "u2b"]);
    expect(w.nodes.filter((n) => n.isLeaf).map((n) => n.key)).toEqual(["u2b"]);
  });

  it("hangs a filtered-out node's children from its nearest shown ancestor", () => {
    const entries = linkPath([u("u1", "q"), a("a1", "r"), branchSummary("b", "elsewhere"), u("u2", "q2")]);
    const index = buildTreeIndex(entries);
    const w = walkGraph(index, pathToRoot(index, eid("u2")), { leafId: eid("u2"), filter: "no-summaries" });
    expect(keys(w)).toEqual(["u1", "a1", "u2"]);
    expect(parentKey(w, "u2")).toBe("a1");
    // A filtered-out entry is shown by no node of its own: by its nearest shown ancestor.
    expect(w.nodeOfEntry.get(eid("b"))).toBe(w.byKey.get("a1"));
  });

  it("a collapsed node shows every entry below it", () => {
    const entries = forked();
    const index = buildTreeIndex(entries);
    const w = walkGraph(index, pathToRoot(index, eid("a2")), { leafId: eid("a2"), collapsed: new Set(["u2"]) });
    expect(keys(w)).toEqual(["u1", "a1", "u2", "u2b"]);
    const u2 = w.byKey.get("u2")!;
    expect(w.nodes[u2]).toMatchObject({ collapsed: true, hiddenCount: 2, children: [] });
    expect(w.nodeOfEntry.get(eid("a2"))).toBe(u2);
    expect(w.nodeOfEntry.get(eid("a2b"))).toBe(u2);
  });

  it("walks an empty tree to no nodes", () => {
    const w = walkGraph(buildTreeIndex([]), [], { leafId: null });
    expect(w.nodes).toEqual([]);
    expect(w.roots).toEqual([]);
  });
});
