import { hierarchy, tree } from "d3-hierarchy";
import { describe, expect, it } from "vitest";
import { LANE_GAP_LEVELS, laneLayout } from "./layout";

type Tree = { parent: number[]; children: number[][] };

/** Renumbers a tree given by parents (parent < child) in pre-order, children oldest (lowest index) first. */
function preorder(parent0: number[]): Tree {
  const kids0: number[][] = parent0.map(() => []);
  for (let i = 0; i < parent0.length; i++) if (parent0[i]! >= 0) kids0[parent0[i]!]!.push(i);
  const order: number[] = [];
  const stack = parent0.flatMap((p, i) => (p < 0 ? [i] : [])).reverse();
  while (stack.length) {
    const v = stack.pop()!;
    order.push(v);
    for (let i = kids0[v]!.length - 1; i >= 0; i--) stack.push(kids0[v]![i]!);
  }
  const renumber = new Map(order.map((v, i) => [v, i]));
  return {
    parent: order.map((v) => (parent0[v]! < 0 ? -1 : renumber.get(parent0[v]!)!)),
    children: order.map((v) => kids0[v]!.map((c) => renumber.get(c)!)),
  };
}

/** A random tree of `n` nodes, mostly chains (a chat), forking now and then. */
function randomTree(n: number, seed: number, forkChance = 0.3): Tree {
  let s = seed;
  const rand = () => {
    s = (s * 48_271) % 2_147_483_647;
    return s / 2_147_483_647;
  };
  const parent0 = [-1];
  for (let i = 1; i < n; i++) parent0.push(rand() < forkChance ? Math.floor(rand() * i) : i - 1);
  return preorder(parent0);
}

/** A chat like the bench session: a `depth`-long path, alternatives of 1–5 messages every 3rd message. */
function chatTree(depth: number, total: number): Tree {
  const parent0 = Array.from({ length: depth }, (_, i) => i - 1);
  let at = 0;
  while (parent0.length < total) {
    let under = at;
    const len = 1 + (parent0.length % 5);
    for (let k = 0; k < len && parent0.length < total; k++) {
      parent0.push(under);
      under = parent0.length - 1;
    }
    at = (at + 3) % depth;
  }
  return preorder(parent0);
}

/** No two nodes share a cell, and two chains in one lane keep LANE_GAP_LEVELS empty levels between them. */
function expectNoCollisions(t: Tree, lane: Int32Array, depth: Int32Array) {
  const cells = new Map<string, number>();
  for (let v = 0; v < t.parent.length; v++) {
    const key = `${lane[v]}:${depth[v]}`;
    expect(cells.has(key), `cell ${key} taken twice`).toBe(false);
    cells.set(key, v);
  }
  for (let v = 0; v < t.parent.length; v++) {
    // The cell below a chain's last node (and the gap) is empty unless it is the first child.
    const kids = t.children[v]!;
    for (let g = 1; g <= LANE_GAP_LEVELS + 1 && kids.length === 0; g++) {
      const below = cells.get(`${lane[v]}:${depth[v]! + g}`);
      if (g <= LANE_GAP_LEVELS) expect(below, `gap under ${v}`).toBeUndefined();
    }
  }
}

describe("laneLayout", () => {
  it("keeps each chain in one lane and puts a fork's other children right of it", () => {
    // 0 - 1 - 2 - 3, fork at 1: [2, 4], 4 - 5 (pre-order numbering)
    const t: Tree = { parent: [-1, 0, 1, 2, 1, 4], children: [[1], [2, 4], [3], [], [5], []] };
    const { lane, depth, lanes } = laneLayout(t);
    expect(Array.from(lane)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(Array.from(depth)).toEqual([0, 1, 2, 3, 2, 3]);
    expect(lanes).toBe(2);
  });

  it("reuses a lane once a chain has ended (with an empty level between)", () => {
    // A long main line; a 1-node alternative at level 1 and another at level 5: both in lane 1.
    const parent = [-1, 0, 1, 2, 3, 4, 5, 6, 0, 4];
    const children = [[1, 8], [2], [3], [4], [5, 9], [6], [7], [], [], []];
    const { lane, lanes } = laneLayout({ parent, children });
    expect(lane[8]).toBe(1);
    expect(lane[9]).toBe(1);
    expect(lanes).toBe(2);
  });

  it("never puts two nodes in one cell (random trees)", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const t = randomTree(3_000, seed);
      const { lane, depth } = laneLayout(t);
      expectNoCollisions(t, lane, depth);
      // The tallest child (the oldest on a tie) continues its parent's lane; the others go right.
      const height = new Array<number>(t.parent.length).fill(0);
      for (let v = t.parent.length - 1; v > 0; v--) {
        const p = t.parent[v]!;
        height[p] = Math.max(height[p]!, height[v]! + 1);
      }
      for (let p = 0; p < t.parent.length; p++) {
        const kids = t.children[p]!;
        if (kids.length === 0) continue;
        const tallest = kids.reduce((best, c) => (height[c]! > height[best]! ? c : best), kids[0]!);
        for (const c of kids) {
          if (c === tallest) expect(lane[c]).toBe(lane[p]);
          else expect(lane[c]).toBeGreaterThan(lane[p]!);
        }
      }
    }
  });

  it("lays out a forest", () => {
    const { lane } = laneLayout({ parent: [-1, 0, -1, 2], children: [[1], [], [3], []] });
    expect(Array.from(lane)).toEqual([0, 0, 1, 1]);
  });

  it("handles a 20,000-deep chain and a 10,000-child star without recursion (its speed is the bench's)", () => {
    const n = 20_000;
    const chain = {
      parent: Array.from({ length: n }, (_, i) => i - 1),
      children: Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : [])),
    };
    const a = laneLayout(chain);
    expect(a.lanes).toBe(1);
    expect(a.maxDepth).toBe(n - 1);
    const star = {
      parent: Array.from({ length: 10_000 }, (_, i) => (i === 0 ? -1 : 0)),
      children: [Array.from({ length: 9_999 }, (_, i) => i + 1), ...Array.from({ length: 9_999 }, () => [])],
    };
    expect(laneLayout(star).lanes).toBe(9_999);
  });

  it("stays narrow on a chat-shaped tree where a tidy tree (d3-hierarchy) runs off sideways", () => {
    const t = chatTree(2_000, 10_000);
    expect(t.parent).toHaveLength(10_000);
    const ours = laneLayout(t);
    expectNoCollisions(t, ours.lane, ours.depth);
    expect(ours.lanes).toBeLessThan(30);

    type Datum = { id: number; kids: Datum[] };
    const data: Datum[] = t.parent.map((_, id) => ({ id, kids: [] }));
    for (let i = 1; i < t.parent.length; i++) data[t.parent[i]!]!.kids.push(data[i]!);
    const root = tree<Datum>().nodeSize([1, 1])(hierarchy(data[0]!, (d) => (d.kids.length ? d.kids : undefined)));
    let min = 0;
    let max = 0;
    root.each((node) => {
      min = Math.min(min, node.x ?? 0);
      max = Math.max(max, node.x ?? 0);
    });
    // Hundreds of columns: the reason layout.ts does not use it.
    expect(max - min).toBeGreaterThan(300);
  });

  it("returns nothing for an empty tree", () => {
    expect(laneLayout({ parent: [], children: [] }).lanes).toBe(0);
  });
});
