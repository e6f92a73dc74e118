/**
 * SVG path data for what the graph draws around its nodes, for the rendered nodes only: tree
 * edges (active ones apart), branch-summary links, the bands that shade folded spans, and, when
 * zoomed out too far for text, the nodes themselves as small boxes. A handful of <path> elements
 * however many nodes are in view: the DOM stays small at 10,000 nodes.
 */
import { type GraphModel, NODE_HEIGHT, NODE_WIDTH, ROW_PITCH } from "../../core/graph/model";
import type { EntryId } from "../../core/session/ids";

export type GraphPaths = {
  edges: string;
  activeEdges: string;
  links: string;
  folded: string;
  foldedStrong: string;
  /** Overview only: boxes by class. */
  boxes: Record<"user" | "assistant" | "other" | "summary" | "active" | "match", string>;
};

const EMPTY_BOXES = { user: "", assistant: "", other: "", summary: "", active: "", match: "" };

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

function boxPath(x: number, y: number): string {
  return `M${r(x - NODE_WIDTH / 2)} ${r(y)}h${NODE_WIDTH}v${NODE_HEIGHT}h${-NODE_WIDTH}z`;
}

/** A band behind a folded node, tall enough to join the band of the node below it. */
function bandPath(x: number, y: number): string {
  const pad = 9;
  return `M${r(x - NODE_WIDTH / 2 - pad)} ${r(y - (ROW_PITCH - NODE_HEIGHT) / 2)}h${NODE_WIDTH + 2 * pad}v${ROW_PITCH}h${-(NODE_WIDTH + 2 * pad)}z`;
}

export function buildPaths(
  model: GraphModel,
  rendered: readonly number[],
  opts: { overview: boolean; strongCompaction: EntryId | null },
): GraphPaths {
  const shown = new Uint8Array(model.nodes.length);
  for (const i of rendered) shown[i] = 1;
  const edges: string[] = [];
  const active: string[] = [];
  const folded: string[] = [];
  const strong: string[] = [];
  const boxes: Record<keyof GraphPaths["boxes"], string[]> | null = opts.overview
    ? { user: [], assistant: [], other: [], summary: [], active: [], match: [] }
    : null;
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
    if (node.foldedBy) (node.foldedBy === opts.strongCompaction ? strong : folded).push(bandPath(node.x, node.y));
    if (boxes) {
      const box = boxPath(node.x, node.y);
      if (node.kind === "user") boxes.user.push(box);
      else if (node.kind === "assistant") boxes.assistant.push(box);
      else if (node.kind === "tool") boxes.other.push(box);
      else boxes.summary.push(box);
      if (node.onActivePath) boxes.active.push(box);
      if (node.matchesSearch) boxes.match.push(box);
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
    boxes: boxes
      ? {
          user: boxes.user.join(""),
          assistant: boxes.assistant.join(""),
          other: boxes.other.join(""),
          summary: boxes.summary.join(""),
          active: boxes.active.join(""),
          match: boxes.match.join(""),
        }
      : EMPTY_BOXES,
  };
}
