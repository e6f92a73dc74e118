import { type RefObject, useEffect, useRef } from "react";
import type { GraphModel } from "../../core/graph/model";
import { LEGIBLE_ZOOM, type Rect, type Size } from "../../core/graph/viewport";

const MINIMAP_WIDTH = 128;
const MINIMAP_HEIGHT = 168;
const PAD = 6;
/** The minimap shows when the graph at a legible zoom is this many times the viewport's size. */
const MINIMAP_WHEN_LARGER = 2;
/** The minimap's column beside the graph (its width plus padding), px. */
const MINIMAP_COLUMN_PX = MINIMAP_WIDTH + 17;
/** Narrower than this (a phone), no minimap: the graph needs the room. */
const MINIMAP_MIN_PANEL_PX = 420;

/**
 * Whether the graph gets a minimap: only when it is much bigger than the viewport (`size`) at a
 * legible zoom, and there is room for its column beside the graph (it never covers nodes).
 * Decided on the width the graph has without the column (`shown`: the column is there now), so
 * showing it does not change the answer.
 */
export function showsMinimap(model: Pick<GraphModel, "bounds" | "nodes">, size: Size, shown: boolean): boolean {
  const b = model.bounds;
  const fullWidth = size.width + (shown ? MINIMAP_COLUMN_PX : 0);
  return (
    size.height > 0 &&
    model.nodes.length > 0 &&
    fullWidth >= MINIMAP_MIN_PANEL_PX &&
    ((b.maxY - b.minY) * LEGIBLE_ZOOM > MINIMAP_WHEN_LARGER * size.height ||
      (b.maxX - b.minX) * LEGIBLE_ZOOM > MINIMAP_WHEN_LARGER * fullWidth)
  );
}

export type MinimapScale = { sx: number; sy: number; ox: number; oy: number };

/**
 * How graph units map onto the minimap. The two axes scale apart (a 2,000-level chat is a needle
 * otherwise), each at most 8 times the other so the shape still reads.
 */
export function minimapScale(model: GraphModel): MinimapScale {
  const b = model.bounds;
  const w = Math.max(1, b.maxX - b.minX);
  const h = Math.max(1, b.maxY - b.minY);
  let sx = (MINIMAP_WIDTH - 2 * PAD) / w;
  let sy = (MINIMAP_HEIGHT - 2 * PAD) / h;
  if (sx > sy * 8) sx = sy * 8;
  if (sy > sx * 8) sy = sx * 8;
  const ox = (MINIMAP_WIDTH - w * sx) / 2 - b.minX * sx;
  const oy = PAD - b.minY * sy;
  return { sx, sy, ox, oy };
}

/** Where the viewport rectangle goes on the minimap, in its pixels (clamped to it). */
export function minimapRect(
  scale: MinimapScale,
  r: Rect,
): { left: number; top: number; width: number; height: number } {
  const x0 = Math.max(0, r.x0 * scale.sx + scale.ox);
  const y0 = Math.max(0, r.y0 * scale.sy + scale.oy);
  const x1 = Math.min(MINIMAP_WIDTH, r.x1 * scale.sx + scale.ox);
  const y1 = Math.min(MINIMAP_HEIGHT, r.y1 * scale.sy + scale.oy);
  return { left: x0, top: y0, width: Math.max(2, x1 - x0), height: Math.max(2, y1 - y0) };
}

function cssColor(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/**
 * Every node as a dot, the active path in the accent colour, and the viewport as a rectangle
 * (moved by GraphView through `rectRef`, without re-rendering this). Click or drag to jump there.
 * A mouse shortcut: keyboard users move through the tree itself.
 */
export function Minimap({
  model,
  rectRef,
  onJump,
}: {
  model: GraphModel;
  rectRef: RefObject<HTMLDivElement | null>;
  onJump: (gx: number, gy: number) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = MINIMAP_WIDTH * dpr;
    canvas.height = MINIMAP_HEIGHT * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, MINIMAP_WIDTH, MINIMAP_HEIGHT);
    const s = minimapScale(model);
    const dot = Math.max(1.5, Math.min(4, s.sy * 40));
    const colors = {
      node: cssColor(canvas, "--graph-mini-node", "#9aa5a0"),
      path: cssColor(canvas, "--graph-active", "#1f6f4a"),
      summary: cssColor(canvas, "--graph-compaction", "#b7791f"),
      match: cssColor(canvas, "--graph-match", "#e0a100"),
    };
    const draw = (filter: (n: GraphModel["nodes"][number]) => boolean, color: string, size: number) => {
      ctx.fillStyle = color;
      for (const n of model.nodes) {
        if (!filter(n)) continue;
        ctx.fillRect(n.x * s.sx + s.ox - size / 2, n.y * s.sy + s.oy, size, Math.max(1, size * 0.7));
      }
    };
    draw((n) => !n.onActivePath, colors.node, dot);
    draw((n) => n.kind === "compaction" || n.kind === "branch_summary" || n.kind === "handoff", colors.summary, dot);
    draw((n) => n.onActivePath, colors.path, dot + 0.5);
    draw((n) => n.matchesSearch, colors.match, dot + 1.5);
  }, [model]);

  const jump = (e: React.PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const s = minimapScale(model);
    onJump((e.clientX - box.left - s.ox) / s.sx, (e.clientY - box.top - s.oy) / s.sy);
  };

  return (
    <div
      className="graph-minimap"
      data-no-pan=""
      aria-hidden="true"
      style={{ width: MINIMAP_WIDTH, height: MINIMAP_HEIGHT }}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        jump(e);
      }}
      onPointerMove={(e) => {
        if (e.buttons & 1) jump(e);
      }}
    >
      <canvas ref={canvasRef} style={{ width: MINIMAP_WIDTH, height: MINIMAP_HEIGHT }} />
      <div ref={rectRef} className="graph-minimap-view" />
    </div>
  );
}
