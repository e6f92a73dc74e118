/**
 * Pan/zoom geometry and viewport culling for the history graph. A view is `{ x, y, k }`: a graph
 * point p is drawn at `p * k + (x, y)` in the viewport's CSS pixels. Only the nodes inside a
 * rectangle are looked at (levels by binary search, never all 10,000 nodes), so culling costs
 * O(log n + visible). Pure: no DOM.
 */
import type { GraphModel } from "./model";
import { NODE_HEIGHT, NODE_WIDTH, ROW_PITCH } from "./place";

export type View = { readonly x: number; readonly y: number; readonly k: number };
export type Rect = { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number };
export type Size = { readonly width: number; readonly height: number };

/** The least zoom the controls go to; "Fit" may go further on a very large graph. */
export const MIN_ZOOM = 0.05;
/** The least zoom "Fit" ever uses. */
const MIN_FIT_ZOOM = 0.001;
const MAX_ZOOM = 2;
/** Below this zoom the graph is drawn as its labelled outline (outline.ts): node text would be unreadable. */
export const DETAIL_ZOOM = 0.5;

const clampZoom = (k: number, min = MIN_ZOOM): number => Math.min(MAX_ZOOM, Math.max(min, k));

/** The graph rectangle the viewport shows. */
export function visibleRect(view: View, size: Size): Rect {
  return {
    x0: -view.x / view.k,
    y0: -view.y / view.k,
    x1: (size.width - view.x) / view.k,
    y1: (size.height - view.y) / view.k,
  };
}

export const containsRect = (outer: Rect, inner: Rect): boolean =>
  inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1;

/** Indices of the nodes whose box meets `rect`, level by level, left to right. */
export function nodesInRect(model: GraphModel, rect: Rect): number[] {
  const out: number[] = [];
  if (model.maxDepth < 0) return out;
  const d0 = Math.max(0, Math.floor((rect.y0 - NODE_HEIGHT) / ROW_PITCH));
  const d1 = Math.min(model.maxDepth, Math.floor(rect.y1 / ROW_PITCH));
  const half = NODE_WIDTH / 2;
  for (let d = d0; d <= d1; d++) {
    const top = d * ROW_PITCH;
    if (top > rect.y1 || top + NODE_HEIGHT < rect.y0) continue;
    let lo = model.depthStart[d]!;
    let hi = model.depthStart[d + 1]!;
    const end = hi;
    // First node of the level whose right edge reaches x0.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (model.nodes[model.byDepth[mid]!]!.x + half < rect.x0) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < end; k++) {
      const i = model.byDepth[k]!;
      if (model.nodes[i]!.x - half > rect.x1) break;
      out.push(i);
    }
  }
  return out;
}

/** The view that shows the whole graph in `size`, with `pad` pixels around it, zoom at most 1. */
export function fitView(model: GraphModel, size: Size, pad = 48): View {
  const b = model.bounds;
  const w = Math.max(1, b.maxX - b.minX);
  const h = Math.max(1, b.maxY - b.minY);
  const k = clampZoom(Math.min((size.width - 2 * pad) / w, (size.height - 2 * pad) / h, 1), MIN_FIT_ZOOM);
  // Centred across, from the top down (a conversation reads top to bottom).
  return { k, x: (size.width - w * k) / 2 - b.minX * k, y: pad - b.minY * k };
}

/**
 * The least zoom at which a node's title (13 px at zoom 1, graph.css) is at least 11 px on screen:
 * "Fit" shows the nodes themselves only from here up.
 */
export const READABLE_ZOOM = 0.85;

/**
 * "Fit" (issue 27 item 4): the whole graph. When it fits at a readable zoom, that view; else a view
 * zoomed out past DETAIL_ZOOM, where the graph is drawn as its outline (outline.ts: every node or
 * group labelled, in screen pixels), the whole graph's box centred across and from the top.
 */
export function fitAllView(model: GraphModel, size: Size, pad = 48): View {
  const whole = fitView(model, size, pad);
  if (whole.k >= READABLE_ZOOM) return whole;
  return zoomAt(whole, Math.min(whole.k, DETAIL_ZOOM * 0.96), size.width / 2, pad, MIN_FIT_ZOOM);
}

/** The least zoom at which node titles stay legible: the path view never goes below it. */
export const LEGIBLE_ZOOM = 0.6;

/**
 * "Fit": the active path (root to where you are) in view at a zoom where titles stay legible. When
 * the whole path does not fit at that zoom, its lower end — where the conversation is — is shown,
 * the current node near the bottom. Without an active path, the whole graph.
 */
export function fitPathView(model: GraphModel, size: Size, pad = 48): View {
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const n of model.nodes) {
    if (!n.onActivePath && n.index !== model.currentIndex) continue;
    minX = Math.min(minX, n.x - NODE_WIDTH / 2);
    maxX = Math.max(maxX, n.x + NODE_WIDTH / 2);
    minY = Math.min(minY, n.y);
    maxY = Math.max(maxY, n.y + NODE_HEIGHT);
  }
  if (minX > maxX) return fitView(model, size, pad);
  const w = maxX - minX;
  const h = maxY - minY;
  const fit = Math.min((size.width - 2 * pad) / w, (size.height - 2 * pad) / h, 1);
  const k = clampZoom(Math.max(fit, LEGIBLE_ZOOM));
  const current = model.nodes[model.currentIndex];
  // Centred across when the path's lanes fit; else around where you are.
  const x =
    w * k <= size.width - 2 * pad || !current ? (size.width - w * k) / 2 - minX * k : size.width / 2 - current.x * k;
  // Top down when it all fits; else the bottom of the path at the bottom of the view.
  const y = h * k <= size.height - 2 * pad ? pad - minY * k : size.height - pad - maxY * k;
  return { k, x, y };
}

/** Zoom to `k` (at least `min`) keeping the graph point under screen point (sx, sy) where it is. */
export function zoomAt(view: View, k: number, sx: number, sy: number, min = MIN_ZOOM): View {
  const next = clampZoom(k, min);
  const gx = (sx - view.x) / view.k;
  const gy = (sy - view.y) / view.k;
  return { k: next, x: sx - gx * next, y: sy - gy * next };
}

/** The view with node `i` centred (zoom kept). */
export function centerOn(model: GraphModel, i: number, view: View, size: Size): View {
  const node = model.nodes[i];
  if (!node) return view;
  return {
    k: view.k,
    x: size.width / 2 - node.x * view.k,
    y: size.height / 2 - (node.y + NODE_HEIGHT / 2) * view.k,
  };
}

/** Pixels along each edge of the viewport that something else covers (a panel, a toolbar). */
export type Insets = { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number };

const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * The smallest pan that brings node `i` fully into view with `margin` pixels to spare, inside the
 * uncovered part of the viewport (the view itself when it already is). A node further than a
 * screen away is centred instead.
 */
export function revealNode(
  model: GraphModel,
  i: number,
  view: View,
  fullSize: Size,
  margin = 32,
  insets: Insets = NO_INSETS,
): View {
  const node = model.nodes[i];
  if (!node) return view;
  const size = {
    width: Math.max(1, fullSize.width - insets.left - insets.right),
    height: Math.max(1, fullSize.height - insets.top - insets.bottom),
  };
  if (insets !== NO_INSETS) {
    // Work in the uncovered box, then shift back.
    const inner = revealNode(model, i, { ...view, x: view.x - insets.left, y: view.y - insets.top }, size, margin);
    return inner.x === view.x - insets.left && inner.y === view.y - insets.top
      ? view
      : { k: inner.k, x: inner.x + insets.left, y: inner.y + insets.top };
  }
  const left = (node.x - NODE_WIDTH / 2) * view.k + view.x;
  const right = (node.x + NODE_WIDTH / 2) * view.k + view.x;
  const top = node.y * view.k + view.y;
  const bottom = (node.y + NODE_HEIGHT) * view.k + view.y;
  if (right < -size.width || left > 2 * size.width || bottom < -size.height || top > 2 * size.height) {
    return centerOn(model, i, view, size);
  }
  let dx = 0;
  let dy = 0;
  if (left < margin) dx = margin - left;
  else if (right > size.width - margin) dx = size.width - margin - right;
  if (top < margin) dy = margin - top;
  else if (bottom > size.height - margin) dy = size.height - margin - bottom;
  return dx === 0 && dy === 0 ? view : { k: view.k, x: view.x + dx, y: view.y + dy };
}
