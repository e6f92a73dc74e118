/**
 * The history graph's layout: levels top to bottom (a node's level is its depth), and LANES left to
 * right, as a git history graph draws branches.
 *
 * Why not a tidy tree (Reingold–Tilford, d3-hierarchy's `tree()`): a tidy tree keeps every subtree
 * in its own block, so a fork's alternatives must sit to the right of EVERYTHING below the main
 * line at the levels they share, including the alternatives of every later fork. A chat is a long
 * chain forking every few messages, so the blocks nest all the way down and the drawing grows one
 * column per fork: on the bench session (10,000 entries, a 2,000-message path) d3's layout is
 * 466,000 px wide, and with parents placed over their first child it is still 1,600 columns. See
 * layout.test.ts, which measures both.
 *
 * Lanes instead: at a fork, the child with the TALLEST subtree continues its parent's lane (the
 * oldest on a tie), so the longest line of the conversation runs straight down however many times
 * a reply was regenerated or a message edited on the way; each other child starts a new chain in
 * the leftmost lane right of its parent's lane that is free over the chain's levels (plus one empty
 * level, so two chains in a lane never look joined). Lanes are reused once a chain ends: the width
 * is the number of chains alive at the busiest level, not the number of forks. Nothing depends on
 * the active path, so switching branches moves nothing; a branch takes over the straight line
 * only when it grows longer than the line.
 *
 * O(n + c log c) for c chains (a segment tree finds free lanes), iterative throughout: a
 * 10,000-deep chain is fine. Pure: no DOM, no I/O.
 */

export type LayoutInput = {
  /**
   * Parent of each node, -1 for a root. Nodes are numbered in pre-order: a parent's index is
   * smaller than its children's (the graph model numbers them so).
   */
  readonly parent: ArrayLike<number>;
  /** Children of each node, oldest first. */
  readonly children: ReadonlyArray<ArrayLike<number>>;
};

export type Layout = {
  /** Lane (column) of each node, 0 = leftmost. */
  readonly lane: Int32Array;
  /** Level (row) of each node: its depth, 0 for a root. */
  readonly depth: Int32Array;
  readonly lanes: number;
  readonly maxDepth: number;
};

/** Empty levels kept between two chains that share a lane. */
export const LANE_GAP_LEVELS = 1;

/** A set of lanes, each free or busy, answering "the first free lane at or after p" in O(log n). */
class LaneSet {
  private readonly size: number;
  /** 1 where the subtree below holds a free lane (a heap-ordered segment tree, leaves at size..2size). */
  private readonly free: Uint8Array;

  constructor(capacity: number) {
    let size = 1;
    while (size < capacity) size *= 2;
    this.size = size;
    this.free = new Uint8Array(2 * size);
    this.free.fill(1, size, 2 * size);
    for (let i = size - 1; i >= 1; i--) this.free[i] = this.free[2 * i]! | this.free[2 * i + 1]!;
  }

  set(lane: number, isFree: boolean): void {
    let i = lane + this.size;
    this.free[i] = isFree ? 1 : 0;
    for (i >>= 1; i >= 1; i >>= 1) this.free[i] = this.free[2 * i]! | this.free[2 * i + 1]!;
  }

  /** The first free lane ≥ `from`, or -1. */
  firstFree(from: number): number {
    if (from >= this.size) return -1;
    let i = from + this.size;
    if (this.free[i]) return from;
    // Climb until a right sibling holds a free lane, then descend to its leftmost free leaf.
    for (;;) {
      if (i === 1) return -1;
      if ((i & 1) === 0 && this.free[i + 1]) {
        i += 1;
        break;
      }
      i >>= 1;
    }
    while (i < this.size) i = this.free[2 * i] ? 2 * i : 2 * i + 1;
    return i - this.size;
  }
}

export function laneLayout(input: LayoutInput): Layout {
  const n = input.children.length;
  const depth = new Int32Array(n);
  const lane = new Int32Array(n);
  let maxDepth = -1;
  for (let v = 0; v < n; v++) {
    const p = input.parent[v]!;
    depth[v] = p >= 0 ? depth[p]! + 1 : 0;
    if (depth[v]! > maxDepth) maxDepth = depth[v]!;
  }
  if (n === 0) return { lane, depth, lanes: 0, maxDepth };

  // The height of each subtree (children have higher indices: one backward pass), and the child
  // that continues each node's lane: the tallest, the oldest on a tie.
  const height = new Int32Array(n);
  for (let v = n - 1; v >= 0; v--) {
    const p = input.parent[v]!;
    if (p >= 0 && height[v]! + 1 > height[p]!) height[p] = height[v]! + 1;
  }
  const next = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    const kids = input.children[v]!;
    let best = -1;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i]!;
      if (best < 0 || height[c]! > height[best]!) best = c;
    }
    next[v] = best;
  }

  // Chains: a head is a root or a child that does not continue its parent's lane. Heads in
  // pre-order, which is also left to right (oldest first) among chains starting at one level.
  const isHead = new Uint8Array(n);
  let heads = 0;
  for (let v = 0; v < n; v++) {
    const p = input.parent[v]!;
    if (p < 0 || next[p] !== v) {
      isHead[v] = 1;
      heads++;
    }
  }
  // Bucket the heads by the level they start at (counting sort keeps pre-order within a level).
  const startCount = new Int32Array(maxDepth + 2);
  for (let v = 0; v < n; v++) if (isHead[v]) startCount[depth[v]! + 1]!++;
  for (let d = 0; d <= maxDepth; d++) startCount[d + 1]! += startCount[d]!;
  const byStart = new Int32Array(heads);
  const fill = startCount.slice(0, maxDepth + 1);
  for (let v = 0; v < n; v++) if (isHead[v]) byStart[fill[depth[v]!]!++] = v;

  // Lanes released at a level: singly linked lists threaded through `releaseNext`, by head.
  const releaseFirst = new Int32Array(maxDepth + 2).fill(-1);
  const releaseNext = new Int32Array(n).fill(-1);
  const lanes = new LaneSet(2 * heads + 1);
  let used = 0;

  for (let d = 0; d <= maxDepth; d++) {
    for (let h = releaseFirst[d]!; h >= 0; h = releaseNext[h]!) lanes.set(lane[h]!, true);
    for (let k = startCount[d]!; k < startCount[d + 1]!; k++) {
      const head = byStart[k]!;
      const p = input.parent[head]!;
      const chosen = lanes.firstFree(p >= 0 ? lane[p]! + 1 : 0);
      lanes.set(chosen, false);
      if (chosen + 1 > used) used = chosen + 1;
      // Walk the chain down, all in the chosen lane.
      let v = head;
      for (;;) {
        lane[v] = chosen;
        if (next[v]! < 0) break;
        v = next[v]!;
      }
      const release = depth[v]! + 1 + LANE_GAP_LEVELS;
      if (release <= maxDepth) {
        releaseNext[head] = releaseFirst[release]!;
        releaseFirst[release] = head;
      }
    }
  }
  return { lane, depth, lanes: used, maxDepth };
}
