/**
 * The graph bench page (bench/graph.mjs builds and drives it): times the history graph's pure
 * model on this page's thread, as the app runs it: the tree index, `buildGraphModel` (nodes,
 * edges, folded spans, lane layout), the lane layout alone, a search over every node, and a
 * viewport cull. Entries come from the bench (the same generated session the app benches seed).
 */
import { laneLayout } from "../src/core/graph/layout";
import { buildGraphModel, type GraphModel, withSearch } from "../src/core/graph/model";
import { nodesInRect } from "../src/core/graph/viewport";
import type { Entry } from "../src/core/session/entries";
import type { EntryId } from "../src/core/session/ids";
import { buildTreeIndex } from "../src/core/session/tree";

type Timings = {
  index: number[];
  model: number[];
  layout: number[];
  search: number[];
  cull: number[];
  nodes: number;
  lanes: number;
  levels: number;
  culled: number;
};

let entries: Entry[] = [];

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const value = f();
  return [value, performance.now() - t0];
}

declare global {
  interface Window {
    groveGraphBench?: {
      load: (json: string) => number;
      run: (leafId: string, runs: number) => Timings;
    };
  }
}

window.groveGraphBench = {
  /** Takes the entries as JSON (parsed here, so the bench does not time a structured clone). */
  load(json: string): number {
    entries = JSON.parse(json) as Entry[];
    return entries.length;
  },
  /** `runs` cold-ish builds: fresh entry objects each time, so no per-entry cache helps. */
  run(leafId: string, runs: number): Timings {
    const out: Timings = {
      index: [],
      model: [],
      layout: [],
      search: [],
      cull: [],
      nodes: 0,
      lanes: 0,
      levels: 0,
      culled: 0,
    };
    let model: GraphModel | null = null;
    for (let r = 0; r < runs; r++) {
      const fresh = entries.map((e) => ({ ...e }));
      const [index, indexMs] = time(() => buildTreeIndex(fresh));
      const [m, modelMs] = time(() => buildGraphModel(fresh, { index, leafId: leafId as EntryId }));
      model = m;
      const [layout, layoutMs] = time(() =>
        laneLayout({ parent: m.nodes.map((n) => n.parent), children: m.nodes.map((n) => n.children) }),
      );
      const [, searchMs] = time(() => withSearch(m, "cursor promise"));
      // A 1280×800 panel's worth of graph at zoom 1, around the leaf.
      const leaf = m.nodes[m.currentIndex]!;
      const [culled, cullMs] = time(() =>
        nodesInRect(m, { x0: leaf.x - 640, y0: leaf.y - 400, x1: leaf.x + 640, y1: leaf.y + 400 }),
      );
      out.index.push(indexMs);
      out.model.push(modelMs);
      out.layout.push(layoutMs);
      out.search.push(searchMs);
      out.cull.push(cullMs);
      out.lanes = layout.lanes;
      out.culled = culled.length;
    }
    out.nodes = model?.nodes.length ?? 0;
    out.levels = (model?.maxDepth ?? -1) + 1;
    return out;
  },
};
