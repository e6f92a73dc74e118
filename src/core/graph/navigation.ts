/**
 * Keyboard moves through the graph (the tree pattern with the arrows mapped to the drawing): Up to
 * the parent, Down to the first child, Left/Right to the previous/next sibling (roots are
 * siblings of each other). Each returns a node index, or -1 when there is nowhere to go.
 * Pure: the moves happen in the model, so they work on nodes that are not drawn.
 */
import type { GraphModel } from "./model";

export type GraphMove = "parent" | "first-child" | "previous-sibling" | "next-sibling" | "first" | "current";

function siblings(model: GraphModel, i: number): readonly number[] {
  const node = model.nodes[i];
  if (!node) return [];
  return node.parent >= 0 ? (model.nodes[node.parent]?.children ?? []) : model.roots;
}

export function moveFrom(model: GraphModel, i: number, move: GraphMove): number {
  const node = model.nodes[i];
  if (move === "first") return model.roots[0] ?? -1;
  if (move === "current") return model.currentIndex;
  if (!node) return -1;
  switch (move) {
    case "parent":
      return node.parent;
    case "first-child":
      return node.children[0] ?? -1;
    case "previous-sibling": {
      const list = siblings(model, i);
      const at = list.indexOf(i);
      return at > 0 ? list[at - 1]! : -1;
    }
    case "next-sibling": {
      const list = siblings(model, i);
      const at = list.indexOf(i);
      return at >= 0 && at < list.length - 1 ? list[at + 1]! : -1;
    }
  }
}

/** 1-based position among its siblings and their count (aria-posinset / aria-setsize). */
export function positionOf(model: GraphModel, i: number): { position: number; count: number } {
  const list = siblings(model, i);
  return { position: list.indexOf(i) + 1, count: list.length };
}
