import { describe, expect, it } from "vitest";
import type { Entry, Session } from "../session/entries";
import { firstWords } from "../session/entry-text";
import { asSessionId, type EntryId } from "../session/ids";
import { buildTreeIndex } from "../session/tree";
import { a, at, branchSummary, compaction, eid, handoff, linkPath, SESSION, text, tool, u } from "../testing/entries";
import { foldedSpans } from "./folded";
import { buildGraphModel, type GraphModel, withSearch } from "./model";
import { moveFrom, positionOf } from "./navigation";
import { handoffKey } from "./node";
import { COLUMN_PITCH, NODE_HEIGHT, ROW_PITCH } from "./place";
import { fitView, nodesInRect, revealNode, visibleRect } from "./viewport";

const node = (m: GraphModel, key: string) => {
  const i = m.byKey.get(key);
  if (i === undefined) throw new Error(`no node ${key}`);
  return m.nodes[i]!;
};
const keysOf = (m: GraphModel, indices: readonly number[]) => indices.map((i) => m.nodes[i]!.key);

/**
 * u1 - a1 - u2 - a2 - u3 - a3        (active path, leaf a3)
 *            \- a2b                  (regenerated reply)
 *       \- u2b - a2c                 (edited user message)
 */
function branchy(): Entry[] {
  return [
    ...linkPath([u("u1", "What is a grove?"), a("a1", "A small wood."), u("u2", "Name three trees")]),
    at(a("a2", "Oak, ash, elm."), "u2", 10),
    at(u("u3", "And a fourth?"), "a2", 11),
    at(a("a3", "Yew."), "u3", 12),
    at(a("a2b", "Birch, beech, oak."), "u2", 13),
    at(u("u2b", "Name four trees"), "a1", 14),
    at(a("a2c", "Oak, ash, elm, yew."), "u2b", 15),
  ];
}

describe("buildGraphModel: nodes and edges", () => {
  it("makes one node per entry with its kind, title, path and leaf marks", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3") });
    expect(m.nodes).toHaveLength(9);
    expect(node(m, "u1")).toMatchObject({ kind: "user", title: "What is a grove?", onActivePath: true, depth: 0 });
    expect(node(m, "a3")).toMatchObject({ kind: "assistant", isLeaf: true, onActivePath: true, depth: 5 });
    expect(node(m, "a2b")).toMatchObject({ onActivePath: false, isLeaf: false });
    expect(m.nodes[m.currentIndex]!.key).toBe("a3");
  });

  it("knows every kind", () => {
    const entries = linkPath([
      handoff("h", "Goal: finish the graph"),
      u("u1", "hi"),
      a("a1", [{ type: "tool_call", id: "c1", name: "search", args: {} }]),
      tool("t1", [{ type: "tool_result", callId: "c1", text: "found it", isError: false }]),
      compaction("c", { summary: "We talked.", firstKept: "t1" }),
      branchSummary("b", "Tried another way."),
    ]);
    const m = buildGraphModel(entries, { leafId: eid("b") });
    // The compaction is drawn at its cut (above the first entry it kept), as the chat draws its card.
    expect(m.nodes.map((n) => n.kind)).toEqual([
      "handoff",
      "user",
      "assistant",
      "compaction",
      "tool",
      "branch_summary",
    ]);
    expect(node(m, "a1").title).toBe("Tool call: search");
    expect(node(m, "t1").title).toBe("found it");
  });

  it("has an edge from each parent to each child, the active ones marked", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3") });
    const edges = m.edges.map((e) => `${m.nodes[e.from]!.key}>${m.nodes[e.to]!.key}${e.active ? "*" : ""}`);
    expect(edges.sort()).toEqual(
      ["u1>a1*", "a1>u2*", "u2>a2*", "a2>u3*", "u3>a3*", "u2>a2b", "a1>u2b", "u2b>a2c"].sort(),
    );
  });

  it("orders children oldest first and keeps the first child's chain in one straight column", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a2c") });
    expect(node(m, "a1").children.map((i) => m.nodes[i]!.key)).toEqual(["u2", "u2b"]);
    const column = ["u1", "a1", "u2", "a2", "u3", "a3"].map((k) => node(m, k).x);
    expect(new Set(column).size).toBe(1);
    expect(node(m, "a2b").x).toBeGreaterThan(node(m, "a2").x);
    expect(node(m, "u2b").x).toBeGreaterThan(node(m, "u2").x);
    expect(node(m, "u3").y).toBe(4 * ROW_PITCH);
    // Switching branches does not move anything: the layout does not depend on the leaf.
    const before = buildGraphModel(branchy(), { leafId: eid("a3") });
    expect(before.nodes.map((n) => [n.key, n.x, n.y])).toEqual(m.nodes.map((n) => [n.key, n.x, n.y]));
  });

  it("lists each level left to right", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3") });
    for (let d = 0; d <= m.maxDepth; d++) {
      const level = Array.from(m.byDepth.subarray(m.depthStart[d]!, m.depthStart[d + 1]!));
      const xs = level.map((i) => m.nodes[i]!.x);
      expect(xs).toEqual([...xs].sort((p, q) => p - q));
      for (const i of level) expect(m.nodes[i]!.depth).toBe(d);
    }
  });

  it("carries labels into the nodes", () => {
    const labels = new Map<EntryId, string>([[eid("a2b"), "Best answer"]]);
    const m = buildGraphModel(branchy(), { leafId: eid("a3"), labels });
    expect(node(m, "a2b").label).toBe("Best answer");
    expect(node(m, "a2").label).toBeNull();
  });

  it("is empty for no entries", () => {
    const m = buildGraphModel([], { leafId: null });
    expect(m.nodes).toHaveLength(0);
    expect(m.currentIndex).toBe(-1);
    expect(nodesInRect(m, { x0: -1e6, y0: -1e6, x1: 1e6, y1: 1e6 })).toEqual([]);
  });
});

describe("buildGraphModel: compactions, branch summaries, handoffs", () => {
  it("gives a compaction its folded span: root up to its first kept entry", () => {
    const entries = linkPath([
      u("u1", "one"),
      a("a1", "one!"),
      u("u2", "two"),
      a("a2", "two!"),
      compaction("c1", { summary: "Summary one", firstKept: "u2" }),
      u("u3", "three"),
    ]);
    const m = buildGraphModel(entries, { leafId: eid("u3") });
    const c = node(m, "c1");
    expect(c.kind).toBe("compaction");
    expect(c.compaction).toMatchObject({ tokensBefore: 1000, tokensAfter: 100, folded: [eid("u1"), eid("a1")] });
    expect(node(m, "u1").foldedBy).toBe(eid("c1"));
    expect(node(m, "a1").foldedBy).toBe(eid("c1"));
    expect(node(m, "u2").foldedBy).toBeNull();
  });

  it("a later compaction folds from the previous one's first kept entry, the previous compaction included", () => {
    const entries = linkPath([
      u("u1", "one"),
      a("a1", "one!"),
      u("u2", "two"),
      a("a2", "two!"),
      compaction("c1", { summary: "Summary one", firstKept: "u2" }),
      u("u3", "three"),
      a("a3", "three!"),
      u("u4", "four"),
      a("a4", "four!"),
      compaction("c2", { summary: "Summary two", firstKept: "u4" }),
    ]);
    const spans = foldedSpans(buildTreeIndex(entries));
    expect(spans.get(eid("c1"))).toEqual([eid("u1"), eid("a1")]);
    expect(spans.get(eid("c2"))).toEqual(["u2", "a2", "c1", "u3", "a3"].map(eid));
    const m = buildGraphModel(entries, { leafId: eid("c2") });
    expect(node(m, "u1").foldedBy).toBe(eid("c1"));
    expect(node(m, "u3").foldedBy).toBe(eid("c2"));
  });

  it("a compaction that kept nothing folded everything above it; the next one stops at it", () => {
    const entries = linkPath([
      u("u1", "one"),
      a("a1", "one!"),
      compaction("c1", { summary: "All of it", firstKept: null }),
      u("u2", "two"),
      a("a2", "two!"),
      compaction("c2", { summary: "Again", firstKept: "a2" }),
    ]);
    const spans = foldedSpans(buildTreeIndex(entries));
    expect(spans.get(eid("c1"))).toEqual([eid("u1"), eid("a1")]);
    expect(spans.get(eid("c2"))).toEqual([eid("c1"), eid("u2")]);
  });

  it("treats a first kept entry that is not on the path as everything above the compaction folded", () => {
    const entries = linkPath([u("u1", "one"), a("a1", "one!"), compaction("c1", { summary: "S", firstKept: "gone" })]);
    expect(foldedSpans(buildTreeIndex(entries)).get(eid("c1"))).toEqual([eid("u1"), eid("a1")]);
  });

  it("links a branch summary to the leaf of the branch it summarizes", () => {
    const entries: Entry[] = [
      ...linkPath([u("u1", "hi"), a("a1", "hello"), u("u2", "old way"), a("a2", "old answer")]),
      { ...at(branchSummary("bs", "We tried the old way."), "a1", 20), fromId: eid("a2") } as Entry,
    ];
    const m = buildGraphModel(entries, { leafId: eid("bs") });
    const bs = node(m, "bs");
    expect(bs).toMatchObject({ kind: "branch_summary", summaryOf: eid("a2"), isLeaf: true });
    const link = m.edges.find((e) => e.kind === "summary");
    expect(link && [m.nodes[link.from]!.key, m.nodes[link.to]!.key]).toEqual(["bs", "a2"]);
  });

  it("links a handoff entry back to the session it continues, and a handed-off entry forward", () => {
    const parent: Session = {
      id: asSessionId("session-0"),
      title: "Plan",
      titleSource: "auto",
      createdAt: 1,
      updatedAt: 1,
      leafId: eid("old-leaf"),
    };
    const child: Session = {
      id: asSessionId("session-2"),
      title: "Plan (part 3)",
      titleSource: "auto",
      createdAt: 5,
      updatedAt: 5,
      leafId: null,
      parentSessionId: SESSION,
      parentEntryId: eid("a1"),
    };
    const entries = linkPath([handoff("h", "Goal: ship it"), u("u1", "go"), a("a1", "going"), u("u2", "more")]);
    const m = buildGraphModel(entries, { leafId: eid("u2"), parentSession: parent, childSessions: [child] });
    expect(node(m, "h").handoff).toEqual({
      direction: "from",
      sessionId: parent.id,
      title: "Plan",
      fromEntryId: eid("old-leaf"),
    });
    const out = node(m, handoffKey(child.id));
    expect(out).toMatchObject({ kind: "handoff", entry: null, title: "Continued in Plan (part 3)" });
    expect(out.handoff).toMatchObject({ direction: "to", sessionId: child.id, title: "Plan (part 3)" });
    // Below the entry it was written from, after that entry's own children.
    expect(m.nodes[out.parent]!.key).toBe("a1");
    expect(node(m, "a1").children.map((i) => m.nodes[i]!.key)).toEqual(["u2", handoffKey(child.id)]);
  });
});

describe("buildGraphModel: filters, search, collapse", () => {
  const entries = (): Entry[] =>
    linkPath([
      u("u1", "first question"),
      a("a1", "first answer"),
      compaction("c1", { summary: "Summary", firstKept: "u1" }),
      u("u2", "second question"),
      a("a2", "second answer"),
      branchSummary("b1", "A branch"),
      u("u3", "third question"),
    ]);

  it("no-summaries hides compactions and branch summaries and re-attaches their children", () => {
    const m = buildGraphModel(entries(), { leafId: eid("u3"), filter: "no-summaries" });
    expect(m.nodes.map((n) => n.key)).toEqual(["u1", "a1", "u2", "a2", "u3"]);
    expect(m.nodes[node(m, "u2").parent]!.key).toBe("a1");
    expect(m.nodes[node(m, "u3").parent]!.key).toBe("a2");
    expect(node(m, "u3").depth).toBe(4);
  });

  it("user-only keeps user messages, each under the previous one", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3"), filter: "user-only" });
    expect(m.nodes.map((n) => n.key)).toEqual(["u1", "u2", "u3", "u2b"]);
    expect(keysOf(m, node(m, "u1").children)).toEqual(["u2", "u2b"]);
    // The leaf (a reply) is hidden: the current node is its nearest shown ancestor.
    expect(m.nodes[m.currentIndex]!.key).toBe("u3");
    expect(m.nodes[m.currentIndex]!.isLeaf).toBe(false);
  });

  it("labelled keeps labelled entries only (a forest when they do not descend from each other)", () => {
    const labels = new Map<EntryId, string>([
      [eid("a2b"), "birch"],
      [eid("u2b"), "four"],
      [eid("a3"), "yew"],
    ]);
    const m = buildGraphModel(branchy(), { leafId: eid("a3"), labels, filter: "labelled" });
    expect(m.nodes.map((n) => n.key).sort()).toEqual(["a2b", "a3", "u2b"]);
    expect(m.roots).toHaveLength(3);
    const xs = m.roots.map((i) => m.nodes[i]!.x);
    expect(new Set(xs).size).toBe(3);
  });

  it("search marks matches in label, title or text (every term), without moving anything", () => {
    const labels = new Map<EntryId, string>([[eid("a2b"), "Keeper"]]);
    const m = buildGraphModel(branchy(), { leafId: eid("a3"), labels });
    const s = buildGraphModel(branchy(), { leafId: eid("a3"), labels, search: "oak" });
    expect(keysOf(s, s.matches).sort()).toEqual(["a2", "a2b", "a2c"]);
    expect(node(s, "a2").matchesSearch).toBe(true);
    expect(node(s, "u1").matchesSearch).toBe(false);
    expect(s.nodes.map((n) => n.x)).toEqual(m.nodes.map((n) => n.x));
    expect(keysOf(s, withSearch(m, "keeper").matches)).toEqual(["a2b"]);
    expect(keysOf(s, withSearch(m, "oak yew").matches)).toEqual(["a2c"]);
    expect(withSearch(m, "   ").matches).toEqual([]);
  });

  it("collapse hides the descendants, counts them, and keeps the current node visible", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3"), collapsed: new Set(["u2"]) });
    expect(m.nodes.map((n) => n.key)).toEqual(["u1", "a1", "u2", "u2b", "a2c"]);
    expect(node(m, "u2")).toMatchObject({ collapsed: true, hiddenCount: 4, children: [] });
    expect(m.nodes[m.currentIndex]!.key).toBe("u2");
    expect(m.nodeOfEntry.get(eid("a3"))).toBe(node(m, "u2").index);
    // A leaf node cannot be collapsed.
    expect(buildGraphModel(branchy(), { leafId: eid("a3"), collapsed: new Set(["a3"]) }).nodes).toHaveLength(9);
  });
});

describe("navigation and viewport", () => {
  it("moves Up to the parent, Down to the first child, Left/Right between siblings", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3") });
    const at_ = (k: string) => node(m, k).index;
    expect(m.nodes[moveFrom(m, at_("u2"), "parent")]!.key).toBe("a1");
    expect(m.nodes[moveFrom(m, at_("a1"), "first-child")]!.key).toBe("u2");
    expect(m.nodes[moveFrom(m, at_("u2"), "next-sibling")]!.key).toBe("u2b");
    expect(m.nodes[moveFrom(m, at_("u2b"), "previous-sibling")]!.key).toBe("u2");
    expect(moveFrom(m, at_("u2"), "previous-sibling")).toBe(-1);
    expect(moveFrom(m, at_("u1"), "parent")).toBe(-1);
    expect(moveFrom(m, at_("a3"), "first-child")).toBe(-1);
    expect(m.nodes[moveFrom(m, at_("u1"), "current")]!.key).toBe("a3");
    expect(positionOf(m, at_("u2b"))).toEqual({ position: 2, count: 2 });
  });

  it("culls to the nodes in a rectangle", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3") });
    const all = nodesInRect(m, { x0: -1e6, y0: -1e6, x1: 1e6, y1: 1e6 });
    expect(all).toHaveLength(9);
    // Only the first two levels of the first column.
    const top = nodesInRect(m, { x0: -10, y0: 0, x1: 10, y1: ROW_PITCH + 1 });
    expect(keysOf(m, top)).toEqual(["u1", "a1"]);
    // Only the second column.
    const second = nodesInRect(m, { x0: COLUMN_PITCH - 5, y0: -1e6, x1: COLUMN_PITCH + 5, y1: 1e6 });
    expect(keysOf(m, second)).toEqual(["u2b", "a2c"]);
  });

  it("fits the graph and reveals a node with the smallest pan", () => {
    const m = buildGraphModel(branchy(), { leafId: eid("a3") });
    const size = { width: 400, height: 300 };
    const view = fitView(m, size);
    expect(nodesInRect(m, visibleRect(view, size))).toHaveLength(9);
    const close = { x: 0, y: 0, k: 1 };
    const moved = revealNode(m, m.currentIndex, close, size);
    const leaf = m.nodes[m.currentIndex]!;
    expect(nodesInRect(m, visibleRect(moved, size))).toContain(leaf.index);
    expect(revealNode(m, m.currentIndex, moved, size)).toBe(moved);
    // With the bottom half covered (a details panel), the node is brought above it.
    const covered = revealNode(m, m.currentIndex, moved, size, 16, { top: 0, right: 0, bottom: 150, left: 0 });
    const bottom = (leaf.y + NODE_HEIGHT) * covered.k + covered.y;
    expect(bottom).toBeLessThanOrEqual(size.height - 150 - 16 + 0.001);
  });
});

describe("scale", () => {
  /** A chat like the bench's: a `depth`-deep active path, short alternatives every 3rd message, `total` entries. */
  function bigSession(total: number, depth: number): Entry[] {
    const out: Entry[] = [];
    let parent: string | null = null;
    for (let i = 0; i < depth; i++) {
      const id = `p${i}`;
      out.push(at(i % 2 === 0 ? u(id, `question ${i}`) : a(id, `answer ${i}`), parent, i));
      parent = id;
    }
    let n = depth;
    for (let i = 0; n < total; i = (i + 3) % depth) {
      let under = `p${i}`;
      const len = 1 + (n % 5);
      for (let k = 0; k < len && n < total; k++, n++) {
        const id = `b${n}`;
        out.push(at(k % 2 === 0 ? a(id, [text(`alt ${n}`)]) : u(id, `alt question ${n}`), under, depth + n));
        under = id;
      }
    }
    return out;
  }

  it("builds a 10,000-entry session with a 2,000-deep path without overflowing the stack, compactly", () => {
    const entries = bigSession(10_000, 2_000);
    const m = buildGraphModel(entries, { leafId: eid("p1999"), search: "alt question 99", foldRuns: false });
    expect(m.nodes).toHaveLength(10_000);
    expect(m.maxDepth).toBeGreaterThanOrEqual(1_999);
    expect(m.nodes[m.currentIndex]!.key).toBe("p1999");
    // The main line is straight (down to where a side branch outgrows what is left of it) and the
    // width stays a handful of columns, not a staircase.
    expect(new Set(Array.from({ length: 1_990 }, (_, i) => node(m, `p${i}`).x)).size).toBe(1);
    expect((m.bounds.maxX - m.bounds.minX) / COLUMN_PITCH).toBeLessThan(40);
    expect(m.matches.length).toBeGreaterThan(0);
    // And a 10,000-deep chain (no branches at all).
    const chain = bigSession(10_000, 10_000);
    expect(buildGraphModel(chain, { leafId: eid("p9999"), collapsed: new Set(["p5"]) }).nodes).toHaveLength(6);
    expect(buildGraphModel(chain, { leafId: eid("p9999"), foldRuns: false }).maxDepth).toBe(9_999);
    // Folded, the chain is its first entry, one run node, the two before the leaf and the leaf.
    const folded = buildGraphModel(chain, { leafId: eid("p9999") });
    expect(folded.nodes.map((n) => (n.kind === "run" ? `run of ${n.run?.entries.length}` : n.key))).toEqual([
      "p0",
      "run of 9996",
      "p9997",
      "p9998",
      "p9999",
    ]);
  });
});

describe("firstWords", () => {
  it("keeps the first words on one line, without markdown noise", () => {
    expect(firstWords("## Heading\n\nSome **bold** text")).toBe("Heading Some bold text");
    expect(firstWords("one two three four five six seven eight nine ten")).toBe(
      "one two three four five six seven eight nine…",
    );
    expect(firstWords("x".repeat(100))).toHaveLength(65);
    expect(firstWords("   ")).toBe("");
    expect(firstWords("```ts\nconst a = 1;\n```")).toBe("const a = 1;");
    expect(firstWords("- first item\n- second item\n> quoted")).toBe("first item second item quoted");
    expect(firstWords("a-b and x+y stay")).toBe("a-b and x+y stay");
  });
});
