/**
 * Pan and zoom input for the history graph: drag to pan (a press that moves less than
 * DRAG_THRESHOLD_PX stays a click), two pointers to pinch, the wheel to zoom around the pointer
 * (Shift+wheel pans). Presses on overlays marked `data-no-pan` (panels, menus, the minimap) are
 * left alone, and so are wheels over them (they scroll).
 */
import { type PointerEvent as ReactPointerEvent, useEffect, useRef } from "react";
import { type View, zoomAt } from "../../core/graph/viewport";
import type { GraphViewport } from "./use-graph-viewport";

/** Pointer travel (px) before a press becomes a pan rather than a click. */
const DRAG_THRESHOLD_PX = 4;

type Point = { x: number; y: number };

export function usePanZoomInput(vp: GraphViewport, onTap: (e: ReactPointerEvent<HTMLDivElement>) => void) {
  const { viewportRef, schedule, minZoom, latestView, stopAnimation, local } = vp;
  /** The last press turned into a pan: the click that follows it is not a click on a node. */
  const dragged = useRef(false);

  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<{
    x: number;
    y: number;
    view: View;
    moved: boolean;
    pinch: { distance: number; mx: number; my: number; view: View } | null;
  } | null>(null);

  const startGesture = () => {
    const v = latestView();
    const points = [...pointers.current.values()];
    if (!v || points.length === 0) return;
    if (points.length >= 2) {
      const [a, b] = points as [Point, Point];
      const m = local((a.x + b.x) / 2, (a.y + b.y) / 2);
      gesture.current = {
        x: a.x,
        y: a.y,
        view: v,
        moved: true,
        pinch: { distance: Math.hypot(a.x - b.x, a.y - b.y) || 1, mx: m.x, my: m.y, view: v },
      };
    } else {
      gesture.current = { x: points[0]!.x, y: points[0]!.y, view: v, moved: false, pinch: null };
    }
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if ((e.target as Element).closest("[data-no-pan]")) return;
    stopAnimation();
    dragged.current = false;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    startGesture();
  };

  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    if (!g) return;
    if (g.pinch && pointers.current.size >= 2) {
      const [a, b] = [...pointers.current.values()] as [Point, Point];
      const m = local((a.x + b.x) / 2, (a.y + b.y) / 2);
      const k = g.pinch.view.k * (Math.hypot(a.x - b.x, a.y - b.y) / g.pinch.distance);
      const zoomed = zoomAt(g.pinch.view, k, g.pinch.mx, g.pinch.my, minZoom());
      dragged.current = true;
      schedule({ ...zoomed, x: zoomed.x + m.x - g.pinch.mx, y: zoomed.y + m.y - g.pinch.my });
      return;
    }
    const dx = e.clientX - g.x;
    const dy = e.clientY - g.y;
    if (!g.moved) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      g.moved = true;
      dragged.current = true;
      try {
        e.currentTarget.setPointerCapture(e.pointerId);
      } catch {
        // Synthetic or already released pointers cannot be captured: panning works without it.
      }
      e.currentTarget.classList.add("panning");
    }
    schedule({ ...g.view, x: g.view.x + dx, y: g.view.y + dy });
  };

  const onPointerEnd = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.delete(e.pointerId);
    const g = gesture.current;
    if (pointers.current.size > 0) {
      startGesture();
      return;
    }
    gesture.current = null;
    e.currentTarget.classList.remove("panning");
    // A press that did not move: a tap (the tree's own click handlers see it too).
    if (e.type === "pointerup" && g && !g.moved) onTap(e);
  };

  useEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if ((e.target as Element).closest("[data-no-pan]")) return;
      const v = latestView();
      if (!v) return;
      e.preventDefault();
      stopAnimation();
      const unit = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 400 : 1;
      if (e.shiftKey && !e.ctrlKey) {
        schedule({ ...v, x: v.x - e.deltaX * unit, y: v.y - e.deltaY * unit });
        return;
      }
      const box = el.getBoundingClientRect();
      const factor = Math.exp(-e.deltaY * unit * (e.ctrlKey ? 0.01 : 0.0015));
      schedule(zoomAt(v, v.k * factor, e.clientX - box.left, e.clientY - box.top, minZoom()));
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [viewportRef, schedule, minZoom, latestView, stopAnimation]);

  return { onPointerDown, onPointerMove, onPointerEnd, dragged };
}
