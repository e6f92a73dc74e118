import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { buildTreeIndex } from "../session/tree";
import { a, at, compaction, eid, linkPath, u } from "../testing/entries";
import { displayTree } from "./display-tree";
import { buildGraphModel, type GraphModel, withSearch } from "./model";
import { runKey } from "./node";
import { RUN_MIN_HIDDEN } from "./walk";

/** "parent>child" for every tree edge, in node order. */
const edgesOf = (m: GraphModel) =>
  m.edges.filter((e) => e.kind === "tree").map((e) => `${m.nodes[e.from]!.key}>${m.nodes[e.to]!.key}`);
const keysOf = (m: GraphModel) => m.nodes.map((n) => n.key);

/** u0 a1 u2 a3 … alternating, `n` entries in one chain. */
function chain(n: number, prefix = "m", parent: string | null = null, t0 = 0): Entry[] {
  const out: Entry[] = [];
  let p = parent;
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    out.push(at(i % 2 === 0 ? u(id, `question ${prefix}${i}`) : a(id, `answer ${prefix}${i}`), p, t0 + i));
    p = id;
  }
  return out;
}

describe("compactions are drawn at their cut, as the chat draws their card", () => {
  // u1 a1 u2 a2 [c: keeps from u2 on] n1 — the chat shows u1 a1 | card | u2 a2 n1.
  const entries = [
    ...linkPath([
      u("u1", "first"),
      a("a1", "one"),
      u("u2", "second"),
      a("a2", "two"),
      compaction("c", { summary: "Earlier turns.", firstKept: "u2" }),
      u("n1", "after"),
    ]),
  ];

  it("moves the compaction above its first kept entry and hangs its children from the entry it followed", () => {
    const m = buildGraphModel(entries, { leafId: eid("n1") });
    expect(edgesOf(m)).toEqual(["u1>a1", "a1>c", "c>u2", "u2>a2", "a2>n1"]);
    expect(m.nodes.find((n) => n.key === "c")!.depth).toBe(2);
    expect(m.nodes.every((n) => n.onActivePath)).toBe(true);
    expect(m.nodes[m.currentIndex]!.key).toBe("n1");
  });

  it("keeps a compaction at its cut when another branch is current, and leaves one that kept nothing", () => {
    // Leaf on a sibling branch of u2: the compaction is not on the active path, and is drawn where it was.
    const other = [...entries, at(u("x", "elsewhere"), "a1", 99)];
    expect(edgesOf(buildGraphModel(other, { leafId: eid("x") }))).toEqual(
      edgesOf(buildGraphModel(other, { leafId: eid("n1") })),
    );
    expect(edgesOf(buildGraphModel(other, { leafId: eid("x") }))).toContain("c>u2");
    const keptNothing = linkPath([
      u("u1", "first"),
      a("a1", "one"),
      compaction("c", { summary: "All.", firstKept: null }),
    ]);
    expect(edgesOf(buildGraphModel(keptNothing, { leafId: eid("c") }))).toEqual(["u1>a1", "a1>c"]);
  });

  it("puts 'You are here' on the last message when the leaf is a compaction drawn at its cut", () => {
    const leafCompaction = linkPath([
      u("u1", "first"),
      a("a1", "one"),
      u("u2", "second"),
      a("a2", "two"),
      compaction("c", { summary: "Earlier turns.", firstKept: "u2" }),
    ]);
    const m = buildGraphModel(leafCompaction, { leafId: eid("c") });
    expect(edgesOf(m)).toEqual(["u1>a1", "a1>c", "c>u2", "u2>a2"]);
    expect(m.nodes[m.currentIndex]!.key).toBe("a2");
    expect(m.nodes.filter((n) => n.isLeaf).map((n) => n.key)).toEqual(["a2"]);
  });

  it("of two branches' compactions keeping the same entry, the older sits above it, the other stays put", () => {
    const shared = linkPath([u("u1", "first"), a("a1", "one"), u("u2", "second"), a("a2", "two")]);
    const entries = [
      ...shared,
      at(u("x1", "left"), "a2", 10),
      at(compaction("c1", { summary: "Left.", firstKept: "u2" }), "x1", 11),
      at(u("y1", "right"), "a2", 12),
      at(compaction("c2", { summary: "Right.", firstKept: "u2" }), "y1", 13),
    ];
    const edges = edgesOf(buildGraphModel(entries, { leafId: eid("c2") }));
    expect(edges).toContain("a1>c1");
    expect(edges).toContain("c1>u2");
    expect(edges).toContain("y1>c2");
    expect(edges).toEqual(edgesOf(buildGraphModel(entries, { leafId: eid("c1") })));
  });

  it("places two compactions in path order, each at its own cut, and keeps every entry exactly once", () => {
    const path = linkPath([
      u("u1", "first"),
      a("a1", "one"),
      u("u2", "second"),
      compaction("c1", { summary: "One.", firstKept: "a1" }),
      a("a2", "two"),
      u("u3", "third"),
      compaction("c2", { summary: "Two.", firstKept: "a2" }),
      a("a3", "three"),
    ]);
    const tree = displayTree(buildTreeIndex(path));
    const seen: string[] = [];
    const walk = (list: readonly Entry[]) => {
      for (const e of list) {
        seen.push(e.id);
        walk(tree.childrenOf(e.id));
      }
    };
    walk(tree.roots);
    expect(seen).toEqual(["u1", "c1", "a1", "u2", "c2", "a2", "u3", "a3"]);
  });
});

describe("long runs of plain messages fold into one node (level of detail)", () => {
  it("folds the middle of a long chain, keeping its top, the two entries before what follows, and the leaf", () => {
    const entries = chain(30);
    const m = buildGraphModel(entries, { leafId: eid("m29") });
    expect(keysOf(m)).toEqual(["m0", runKey(eid("m1")), "m27", "m28", "m29"]);
    const run = m.nodes[1]!;
    expect(run).toMatchObject({ kind: "run", title: "26 messages", onActivePath: true, entry: null });
    expect(run.run!.entries.map((e) => e.id)).toEqual(Array.from({ length: 26 }, (_, i) => `m${i + 1}`));
    // Every hidden entry is found under the run node (the chat's "show in graph" lands on it).
    expect(m.nodeOfEntry.get(eid("m13"))).toBe(1);
  });

  it("keeps short runs, forks, labels and the leaf visible", () => {
    expect(buildGraphModel(chain(RUN_MIN_HIDDEN + 2), { leafId: eid(`m${RUN_MIN_HIDDEN + 1}`) }).nodes).toHaveLength(
      RUN_MIN_HIDDEN + 2,
    );
    // A fork at m10: above it ten entries (too few to fold), below it the main line and the branch
    // each fold their own run.
    const forked = [...chain(30), ...chain(20, "b", "m10", 100)];
    const m = buildGraphModel(forked, { leafId: eid("m29") });
    expect(m.nodes.filter((n) => n.kind === "run").map((n) => n.run!.entries.length)).toEqual([15, 16]);
    expect(keysOf(m)).toContain("m10");
    // A label in the middle of a run splits it.
    const labelled = buildGraphModel(chain(30), { leafId: eid("m29"), labels: new Map([[eid("m15"), "Keep"]]) });
    expect(keysOf(labelled)).toContain("m15");
  });

  it("shows every entry of a run the user expanded, and none fold under other filters", () => {
    const entries = chain(30);
    const expanded = buildGraphModel(entries, { leafId: eid("m29"), expandedRuns: new Set([runKey(eid("m1"))]) });
    expect(expanded.nodes).toHaveLength(30);
    expect(buildGraphModel(entries, { leafId: eid("m29"), filter: "user-only" }).nodes).toHaveLength(15);
  });

  it("a search that matches an entry inside a run marks the run", () => {
    const m = withSearch(buildGraphModel(chain(30), { leafId: eid("m29") }), "answer m13");
    expect(m.matches.map((i) => m.nodes[i]!.key)).toEqual([runKey(eid("m1"))]);
  });
});
