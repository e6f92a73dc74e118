/**
 * The history graph's pan/zoom transform (DESIGN §6, "smooth at 10,000 nodes"). A view is applied
 * straight to the DOM (the world layer's CSS transform, the minimap's rectangle, the zoom label):
 * a pan never re-renders React until it leaves the area rendered around the viewport, or the zoom
 * crosses DETAIL_ZOOM, below which the outline is drawn instead (`frame`, the only state it sets). Input is batched to one
 * view per animation frame; Fit, zoom buttons and "go to" moves animate briefly.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { GraphModel } from "../../core/graph/model";
import {
  containsRect,
  DETAIL_ZOOM,
  fitAllView,
  fitPathView,
  fitView,
  MIN_ZOOM,
  READABLE_ZOOM,
  type Rect,
  type Size,
  type View,
  visibleRect,
} from "../../core/graph/viewport";
import { minimapRect, minimapScale } from "./Minimap";

/** Nodes are rendered this far (screen px) beyond each edge of the viewport, so a pan re-renders rarely. */
const OVERSCAN_PX = 360;
const ANIMATION_MS = 180;
/** The zoom a keyboard move or an overview click lands at, when zoomed out too far to read. */
export const READING_ZOOM = 0.9;

/** The graph area rendered as DOM (overscan included), and whether the view is zoomed out to the outline. */
export type Frame = { rect: Rect; overview: boolean };

function clampToBounds(r: Rect, model: GraphModel): Rect {
  const b = model.bounds;
  return {
    x0: Math.max(r.x0, b.minX),
    y0: Math.max(r.y0, b.minY),
    x1: Math.min(r.x1, b.maxX),
    y1: Math.min(r.y1, b.maxY),
  };
}

const easeOut = (t: number) => 1 - (1 - t) ** 3;

export function useGraphViewport(model: GraphModel) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const worldRef = useRef<HTMLDivElement>(null);
  const miniRectRef = useRef<HTMLDivElement>(null);
  const zoomLabelRef = useRef<HTMLSpanElement>(null);

  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  const [frame, setFrame] = useState<Frame | null>(null);
  const viewRef = useRef<View | null>(null);
  const frameRef = useRef<Frame | null>(null);
  const modelRef = useRef(model);
  modelRef.current = model;
  const sizeRef = useRef(size);
  sizeRef.current = size;

  const minZoom = useCallback(() => Math.min(MIN_ZOOM, fitView(modelRef.current, sizeRef.current).k), []);

  const applyView = useCallback((v: View) => {
    viewRef.current = v;
    const world = worldRef.current;
    if (world) world.style.transform = `translate(${v.x}px, ${v.y}px) scale(${v.k})`;
    const label = zoomLabelRef.current;
    const percent = v.k >= 0.01 ? `${Math.round(v.k * 100)}%` : "<1%";
    if (label && label.textContent !== percent) label.textContent = percent;
    const size = sizeRef.current;
    if (size.width === 0) return;
    const m = modelRef.current;
    const visible = visibleRect(v, size);
    const mini = miniRectRef.current;
    if (mini) {
      const r = minimapRect(minimapScale(m), visible);
      mini.style.transform = `translate(${r.left}px, ${r.top}px)`;
      mini.style.width = `${r.width}px`;
      mini.style.height = `${r.height}px`;
    }
    const overview = v.k < DETAIL_ZOOM;
    const current = frameRef.current;
    if (!current || current.overview !== overview || !containsRect(current.rect, clampToBounds(visible, m))) {
      // Overscan in screen pixels: the same margin at every zoom.
      const margin = OVERSCAN_PX / v.k;
      const next = {
        rect: { x0: visible.x0 - margin, y0: visible.y0 - margin, x1: visible.x1 + margin, y1: visible.y1 + margin },
        overview,
      };
      frameRef.current = next;
      setFrame(next);
    }
  }, []);

  // Pointer and wheel input arrive faster than frames: apply at most one view per frame.
  const scheduled = useRef<{ view: View; raf: number } | null>(null);
  const schedule = useCallback(
    (v: View) => {
      if (scheduled.current) {
        scheduled.current.view = v;
        return;
      }
      const raf = requestAnimationFrame(() => {
        const next = scheduled.current?.view;
        scheduled.current = null;
        if (next) applyView(next);
      });
      scheduled.current = { view: v, raf };
    },
    [applyView],
  );
  const latestView = useCallback(() => scheduled.current?.view ?? viewRef.current, []);

  const animation = useRef(0);
  const stopAnimation = useCallback(() => cancelAnimationFrame(animation.current), []);
  const animateTo = useCallback(
    (target: View) => {
      cancelAnimationFrame(animation.current);
      const from = viewRef.current;
      if (!from || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
        applyView(target);
        return;
      }
      const start = performance.now();
      const step = (now: number) => {
        const t = Math.min(1, (now - start) / ANIMATION_MS);
        const e = easeOut(t);
        applyView({
          x: from.x + (target.x - from.x) * e,
          y: from.y + (target.y - from.y) * e,
          k: from.k * (target.k / from.k) ** e,
        });
        if (t < 1) animation.current = requestAnimationFrame(step);
      };
      animation.current = requestAnimationFrame(step);
    },
    [applyView],
  );

  // The viewport's size.
  useLayoutEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // First view: the whole graph when it fits readably, else the active path at a legible zoom
  // (its lower end, where the conversation is, when it is long). A resize keeps the middle of the view where it was.
  const lastSize = useRef<Size | null>(null);
  useLayoutEffect(() => {
    if (size.width === 0) return;
    const before = lastSize.current;
    lastSize.current = size;
    const v = viewRef.current;
    if (v) {
      if (!before || (before.width === size.width && before.height === size.height)) {
        applyView(v);
        return;
      }
      // The whole graph was in view (Fit): fit again (a bigger panel or full screen may show it readably).
      const r = visibleRect(v, before);
      const b = model.bounds;
      const wholeInView = b.minX >= r.x0 && b.maxX <= r.x1 && b.minY >= r.y0 && b.maxY <= r.y1;
      applyView(
        wholeInView
          ? fitAllView(model, size)
          : { ...v, x: v.x + (size.width - before.width) / 2, y: v.y + (size.height - before.height) / 2 },
      );
      return;
    }
    if (model.nodes.length === 0) return;
    const fit = fitView(model, size);
    if (fit.k >= READABLE_ZOOM) {
      applyView(fit);
      return;
    }
    applyView(fitPathView(model, size));
  }, [size, model, applyView]);

  // The minimap's scale and the rendered nodes change with the model.
  // biome-ignore lint/correctness/useExhaustiveDependencies: applyView reads the model through modelRef
  useEffect(() => {
    if (viewRef.current) applyView(viewRef.current);
  }, [model, applyView]);

  /** Viewport coordinates of a pointer. */
  const local = useCallback((clientX: number, clientY: number) => {
    const box = viewportRef.current?.getBoundingClientRect();
    return { x: clientX - (box?.left ?? 0), y: clientY - (box?.top ?? 0) };
  }, []);

  return {
    viewportRef,
    worldRef,
    miniRectRef,
    zoomLabelRef,
    size,
    frame,
    viewRef,
    frameRef,
    sizeRef,
    modelRef,
    minZoom,
    applyView,
    schedule,
    latestView,
    animateTo,
    stopAnimation,
    local,
  };
}

export type GraphViewport = ReturnType<typeof useGraphViewport>;
