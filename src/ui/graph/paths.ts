/**
 * SVG path data for what the graph draws around its nodes, for the rendered nodes only: tree
 * edges (active ones apart), branch-summary links, and the bands (with a bracket on their left)
 * that shade folded spans. A handful of <path> elements however many nodes are in view.
 */
import type { GraphModel } from "../../core/graph/model";
import { NODE_HEIGHT, NODE_WIDTH, ROW_PITCH } from "../../core/graph/place";
import type { EntryId } from "../../core/session/ids";

export type GraphPaths = {
  edges: string;
  activeEdges: string;
  links: string;
  folded: string;
  foldedStrong: string;
  /** The bracket along the left of the strong band. */
  bracket: string;
};

const r = (n: number) => Math.round(n * 10) / 10;

/** Corner radius of an edge that changes lanes. */
const BEND = 10;

/** Parent bottom-centre to child top-centre: straight down, or down, across and down with rounded bends. */
function edgePath(x1: number, y1: number, x2: number, y2: number): string {
  if (x1 === x2) return `M${r(x1)} ${r(y1)}V${r(y2)}`;
  const ym = (y1 + y2) / 2;
  const bend = Math.min(BEND, Math.abs(x2 - x1) / 2, (y2 - y1) / 2);
  const dir = x2 > x1 ? 1 : -1;
  return (
    `M${r(x1)} ${r(y1)}V${r(ym - bend)}Q${r(x1)} ${r(ym)} ${r(x1 + dir * bend)} ${r(ym)}` +
    `H${r(x2 - dir * bend)}Q${r(x2)} ${r(ym)} ${r(x2)} ${r(ym + bend)}V${r(y2)}`
  );
}

/** A branch summary to the leaf it summarizes: a dashed arc on the right of both boxes. */
function linkPath(x1: number, y1: number, x2: number, y2: number): string {
  const sx = x1 + NODE_WIDTH / 2;
  const tx = x2 + NODE_WIDTH / 2;
  const sy = y1 + NODE_HEIGHT / 2;
  const ty = y2 + NODE_HEIGHT / 2;
  const out = Math.max(sx, tx) + 40 + Math.min(120, Math.abs(ty - sy) / 6);
  return `M${r(sx)} ${r(sy)}C${r(out)} ${r(sy)} ${r(out)} ${r(ty)} ${r(tx)} ${r(ty)}`;
}

const BAND_PAD = 9;

/** A band behind a folded node, tall enough to join the band of the node below it. */
function bandPath(x: number, y: number): string {
  const w = NODE_WIDTH + 2 * BAND_PAD;
  return `M${r(x - NODE_WIDTH / 2 - BAND_PAD)} ${r(y - (ROW_PITCH - NODE_HEIGHT) / 2)}h${w}v${ROW_PITCH}h${-w}z`;
}

/** The bracket's piece beside one folded node: a bar down the band's left edge. */
function bracketPath(x: number, y: number): string {
  return `M${r(x - NODE_WIDTH / 2 - BAND_PAD)} ${r(y - (ROW_PITCH - NODE_HEIGHT) / 2)}v${ROW_PITCH}`;
}

export function buildPaths(
  model: GraphModel,
  rendered: readonly number[],
  opts: { strongCompaction: EntryId | null },
): GraphPaths {
  const shown = new Uint8Array(model.nodes.length);
  for (const i of rendered) shown[i] = 1;
  const edges: string[] = [];
  const active: string[] = [];
  const folded: string[] = [];
  const strong: string[] = [];
  const bracket: string[] = [];
  const edge = (from: number, to: number) => {
    const p = model.nodes[from]!;
    const c = model.nodes[to]!;
    (p.onActivePath && c.onActivePath ? active : edges).push(edgePath(p.x, p.y + NODE_HEIGHT, c.x, c.y));
  };
  for (const i of rendered) {
    const node = model.nodes[i]!;
    if (node.parent >= 0) edge(node.parent, i);
    // Edges down to children out of view still start here.
    for (const c of node.children) if (!shown[c]) edge(i, c);
    if (!node.foldedBy) continue;
    if (node.foldedBy === opts.strongCompaction) {
      strong.push(bandPath(node.x, node.y));
      bracket.push(bracketPath(node.x, node.y));
    } else {
      folded.push(bandPath(node.x, node.y));
    }
  }
  const links: string[] = [];
  for (const e of model.edges) {
    if (e.kind !== "summary" || (!shown[e.from] && !shown[e.to])) continue;
    const a = model.nodes[e.from]!;
    const b = model.nodes[e.to]!;
    links.push(linkPath(a.x, a.y, b.x, b.y));
  }
  return {
    edges: edges.join(""),
    activeEdges: active.join(""),
    links: links.join(""),
    folded: folded.join(""),
    foldedStrong: strong.join(""),
    bracket: bracket.join(""),
  };
}
