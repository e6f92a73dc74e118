/**
 * The graph zoomed out too far for text: every node in view as a small box (at least a few screen
 * pixels, whatever the zoom), the edges as thin lines, drawn on a canvas in screen space on every
 * view change. A canvas because at "Fit" on a 10,000-entry session everything is in view, and
 * 10,000 DOM nodes (or SVG shapes under a 1 % transform) are neither fast nor reliably painted.
 */
import type { GraphModel } from "../../core/graph/model";
import { NODE_HEIGHT, NODE_WIDTH } from "../../core/graph/place";
import { growRect, nodesInRect, type Size, type View, visibleRect } from "../../core/graph/viewport";

export type OverviewColors = {
  edge: string;
  active: string;
  user: string;
  assistant: string;
  tool: string;
  summary: string;
  match: string;
};

/** Reads the graph's colours from its CSS variables (graph.css), light or dark. */
export function overviewColors(el: Element): OverviewColors {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    edge: v("--graph-edge", "#b9c1bb"),
    active: v("--graph-active", "#1f6f4a"),
    user: v("--graph-user", "#3765c5"),
    assistant: v("--graph-mini-node", "#a9b3ad"),
    tool: v("--graph-tool", "#6b7280"),
    summary: v("--graph-compaction", "#b7791f"),
    match: v("--graph-match", "#f0b400"),
  };
}

/** Smallest drawn box side, in screen pixels. */
const MIN_BOX_PX = 3;

export function drawOverview(
  canvas: HTMLCanvasElement,
  model: GraphModel,
  view: View,
  size: Size,
  colors: OverviewColors,
  current: number,
): void {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(size.width * dpr);
  const h = Math.round(size.height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const list = nodesInRect(model, growRect(visibleRect(view, size), 0.02));
  ctx.setTransform(dpr * view.k, 0, 0, dpr * view.k, dpr * view.x, dpr * view.y);
  const px = 1 / view.k;

  // Edges: down from the parent's box, across between the levels, down into the child.
  const edges = (activeOnly: boolean) => {
    ctx.beginPath();
    for (const i of list) {
      const n = model.nodes[i]!;
      if (n.parent < 0) continue;
      const p = model.nodes[n.parent]!;
      if ((p.onActivePath && n.onActivePath) !== activeOnly) continue;
      const y1 = p.y + NODE_HEIGHT;
      const ym = (y1 + n.y) / 2;
      ctx.moveTo(p.x, y1);
      if (p.x !== n.x) {
        ctx.lineTo(p.x, ym);
        ctx.lineTo(n.x, ym);
      }
      ctx.lineTo(n.x, n.y);
    }
  };
  ctx.lineWidth = 1.2 * px;
  ctx.strokeStyle = colors.edge;
  edges(false);
  ctx.stroke();
  ctx.lineWidth = 2.2 * px;
  ctx.strokeStyle = colors.active;
  edges(true);
  ctx.stroke();

  // Boxes, at least MIN_BOX_PX on screen.
  const bw = Math.max(NODE_WIDTH * 0.8, MIN_BOX_PX * px);
  const bh = Math.max(NODE_HEIGHT, MIN_BOX_PX * px);
  const box = (i: number) => {
    const n = model.nodes[i]!;
    ctx.fillRect(n.x - bw / 2, n.y, bw, bh);
  };
  const groups: Array<[string, (i: number) => boolean]> = [
    [colors.assistant, (i) => model.nodes[i]!.kind === "assistant" || model.nodes[i]!.kind === "tool"],
    [colors.user, (i) => model.nodes[i]!.kind === "user"],
    [
      colors.summary,
      (i) =>
        model.nodes[i]!.entry === null ||
        model.nodes[i]!.compaction !== null ||
        model.nodes[i]!.kind === "branch_summary" ||
        model.nodes[i]!.kind === "handoff",
    ],
    [colors.active, (i) => model.nodes[i]!.onActivePath],
  ];
  for (const [color, keep] of groups) {
    ctx.fillStyle = color;
    for (const i of list) if (keep(i)) box(i);
  }
  ctx.lineWidth = 2 * px;
  ctx.strokeStyle = colors.match;
  for (const i of list) {
    if (!model.nodes[i]!.matchesSearch) continue;
    const n = model.nodes[i]!;
    ctx.strokeRect(n.x - bw / 2 - 2 * px, n.y - 2 * px, bw + 4 * px, bh + 4 * px);
  }
  // Where you are: a ring that stays visible at any zoom.
  const here = model.nodes[current];
  if (here) {
    ctx.beginPath();
    ctx.arc(here.x, here.y + NODE_HEIGHT / 2, Math.max(NODE_WIDTH * 0.6, 7 * px), 0, Math.PI * 2);
    ctx.lineWidth = 2.5 * px;
    ctx.strokeStyle = colors.active;
    ctx.stroke();
  }
}
