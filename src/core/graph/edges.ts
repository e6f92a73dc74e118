/**
 * The graph's lines (DESIGN §6): a tree edge from each shown node to each of its shown children,
 * and a summary edge from a branch summary to the node showing the leaf of the branch it
 * summarizes. Pure: no I/O.
 */
import type { EntryId } from "../session/ids";
import type { GraphNode } from "./node";

export type GraphEdge = {
  readonly from: number;
  readonly to: number;
  /** "tree": parent to child. "summary": a branch summary to the leaf of the branch it summarizes. */
  readonly kind: "tree" | "summary";
  /** Both ends on the active path (tree edges only). */
  readonly active: boolean;
};

/**
 * Tree edges in node order, then summary edges. A summary whose branch is not shown, or is shown
 * by the summary's own node (hidden under it), gets no edge.
 */
export function graphEdges(
  nodes: readonly Pick<GraphNode, "index" | "parent" | "onActivePath" | "summaryOf">[],
  nodeOfEntry: ReadonlyMap<EntryId, number>,
): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const node of nodes) {
    if (node.parent >= 0) {
      const p = nodes[node.parent]!;
      edges.push({ from: p.index, to: node.index, kind: "tree", active: p.onActivePath && node.onActivePath });
    }
  }
  for (const node of nodes) {
    if (node.summaryOf === null) continue;
    const target = nodeOfEntry.get(node.summaryOf);
    if (target !== undefined && target !== node.index) {
      edges.push({ from: node.index, to: target, kind: "summary", active: false });
    }
  }
  return edges;
}
