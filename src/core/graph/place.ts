/**
 * Where the graph's nodes go (DESIGN §6): lanes left to right (layout.ts), levels top to bottom,
 * in graph units; each level's nodes left to right, and the extent of them all. Pure: no I/O.
 */
import { laneLayout } from "./layout";

/** Node box and spacing, in graph units (CSS pixels at zoom 1). */
export const NODE_WIDTH = 184;
export const NODE_HEIGHT = 56;
/** Horizontal distance between the centres of two neighbouring columns. */
export const COLUMN_PITCH = NODE_WIDTH + 18;
/** Vertical distance between two levels (top to top). */
export const ROW_PITCH = NODE_HEIGHT + 30;

export type Bounds = { readonly minX: number; readonly maxX: number; readonly minY: number; readonly maxY: number };

export type Placement = {
  /** Centre of each node's box, graph units. */
  readonly x: Float64Array;
  /** Top of each node's box, graph units. */
  readonly y: Float64Array;
  /** Node indices by level, each level left to right; level d is `byDepth[depthStart[d] .. depthStart[d+1])`. */
  readonly byDepth: Int32Array;
  readonly depthStart: Int32Array;
  readonly maxDepth: number;
  /** Extent of the node boxes, graph units (all 0 for no nodes). */
  readonly bounds: Bounds;
};

/**
 * Places a forest given as each node's parent (-1 for a root) and children (oldest first), numbered
 * in pre-order (a parent before its children), as the walk numbers them.
 */
export function placeNodes(tree: {
  readonly parents: ArrayLike<number>;
  readonly children: ReadonlyArray<ArrayLike<number>>;
}): Placement {
  const layout = laneLayout({ parent: tree.parents, children: tree.children });
  const { maxDepth, lane, depth } = layout;
  const n = lane.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = lane[i]! * COLUMN_PITCH;
    y[i] = depth[i]! * ROW_PITCH;
  }

  // Levels, left to right (a counting sort by level, then each level by lane).
  const depthStart = new Int32Array(maxDepth + 2);
  for (let i = 0; i < n; i++) depthStart[depth[i]! + 1]!++;
  for (let d = 0; d <= maxDepth; d++) depthStart[d + 1]! += depthStart[d]!;
  const byDepth = new Int32Array(n);
  const fill = depthStart.slice(0, Math.max(0, maxDepth + 1));
  for (let i = 0; i < n; i++) byDepth[fill[depth[i]!]!++] = i;
  for (let d = 0; d <= maxDepth; d++) {
    const from = depthStart[d]!;
    const to = depthStart[d + 1]!;
    if (to - from > 1) byDepth.subarray(from, to).sort((p, q) => lane[p]! - lane[q]!);
  }

  const bounds =
    n === 0
      ? { minX: 0, maxX: 0, minY: 0, maxY: 0 }
      : {
          minX: -NODE_WIDTH / 2,
          maxX: (layout.lanes - 1) * COLUMN_PITCH + NODE_WIDTH / 2,
          minY: 0,
          maxY: maxDepth * ROW_PITCH + NODE_HEIGHT,
        };
  return { x, y, byDepth, depthStart, maxDepth, bounds };
}
