/**
 * The history graph's model (DESIGN §6): every entry of a session as a node of a tree, plus links
 * to the sessions a handoff connects, laid out once per model. Three steps, each in its own module:
 * the walk (walk.ts: which nodes, under which parent), the placing (place.ts: lanes and levels)
 * and the edges (edges.ts). Search only marks nodes, so it never moves anything.
 *
 * O(n) apart from the tree index's sort (O(n log n)), iterative everywhere: a 10,000-entry session
 * with a 2,000-deep path builds in tens of milliseconds without deep recursion.
 * Pure: no React, no DOM, no I/O.
 */

import type { Entry } from "../session/entries";
import { entrySearchText, entryTitle, searchTerms } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import { buildTreeIndex, pathToRoot, type TreeIndex } from "../session/tree";
import { type GraphEdge, graphEdges } from "./edges";
import type { GraphNode } from "./node";
import { type Bounds, placeNodes } from "./place";
import { type WalkOptions, walkGraph } from "./walk";

export type GraphModel = {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly roots: readonly number[];
  readonly byKey: ReadonlyMap<string, number>;
  /**
   * Where you are: the node of the session's leaf (of the entry a leaf compaction was written after,
   * when the compaction is drawn at its cut: the chat's last message), or the node it is hidden
   * under (its nearest shown ancestor, or its collapsed run). -1 when the session is empty (or
   * nothing is shown).
   */
  readonly currentIndex: number;
  /** Node indices by level, each level left to right; level d is `byDepth[depthStart[d] .. depthStart[d+1])`. */
  readonly byDepth: Int32Array;
  readonly depthStart: Int32Array;
  readonly maxDepth: number;
  /** Extent of the node boxes, graph units. */
  readonly bounds: Bounds;
  /** Indices of the nodes matching the search, top to bottom. */
  readonly matches: readonly number[];
  /** For every entry: the node that shows it (itself, or the ancestor it is hidden under), when any. */
  readonly nodeOfEntry: ReadonlyMap<EntryId, number>;
};

export type GraphOptions = WalkOptions & {
  search?: string;
  /** The tree index of `entries`, when the caller has it already. */
  index?: TreeIndex;
};

/**
 * Builds the graph of a session's entries: nodes, edges and their layout.
 *
 * @example
 * const model = buildGraphModel(entries, { leafId: session.leafId, labels, filter: "all" });
 * const leaf = model.nodes[model.currentIndex]; // leaf.isLeaf === true
 */
export function buildGraphModel(entries: Iterable<Entry>, opts: GraphOptions): GraphModel {
  const index = opts.index ?? buildTreeIndex(entries);
  const { leafId } = opts;
  const walk = walkGraph(index, leafId ? pathToRoot(index, leafId) : [], opts);
  const here = walk.hereId;
  const place = placeNodes(walk);
  // The walk's nodes are this model's alone until it is returned: placed where they stand.
  for (const node of walk.nodes) {
    node.x = place.x[node.index]!;
    node.y = place.y[node.index]!;
  }
  const model: GraphModel = {
    nodes: walk.nodes,
    edges: graphEdges(walk.nodes, walk.nodeOfEntry),
    roots: walk.roots,
    byKey: walk.byKey,
    currentIndex: here ? (walk.nodeOfEntry.get(here) ?? -1) : -1,
    byDepth: place.byDepth,
    depthStart: place.depthStart,
    maxDepth: place.maxDepth,
    bounds: place.bounds,
    matches: [],
    nodeOfEntry: walk.nodeOfEntry,
  };
  return opts.search ? withSearch(model, opts.search) : model;
}

/** Indices of the nodes whose label, title or text contains every term of `query`, top to bottom. */
export function searchGraph(model: GraphModel, query: string | undefined): number[] {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const out: number[] = [];
  for (let k = 0; k < model.byDepth.length; k++) {
    const node = model.nodes[model.byDepth[k]!]!;
    const label = node.label?.toLowerCase() ?? "";
    const title = node.title.toLowerCase();
    if (node.run) {
      // A collapsed run matches when one of its entries does (it is where that entry is drawn).
      const found = node.run.entries.some((e) => {
        const text = entrySearchText(e);
        return terms.every((t) => entryTitle(e).toLowerCase().includes(t) || text.includes(t));
      });
      if (found) out.push(node.index);
      continue;
    }
    const text = node.entry ? entrySearchText(node.entry) : "";
    if (terms.every((t) => label.includes(t) || title.includes(t) || text.includes(t))) out.push(node.index);
  }
  return out;
}

/** The model with `matchesSearch` and `matches` set for `query` (the layout is shared, not redone). */
export function withSearch(model: GraphModel, query: string | undefined): GraphModel {
  const matches = searchGraph(model, query);
  const hit = new Set(matches);
  return {
    ...model,
    nodes: model.nodes.map((n) =>
      hit.has(n.index) || n.matchesSearch ? { ...n, matchesSearch: hit.has(n.index) } : n,
    ),
    matches,
  };
}
