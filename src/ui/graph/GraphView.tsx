import {
  type PointerEvent as ReactPointerEvent,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { GraphModel } from "../../core/graph/model";
import { type GraphMove, moveFrom } from "../../core/graph/navigation";
import {
  centerOn,
  DETAIL_ZOOM,
  fitPathView,
  fitView,
  type Insets,
  LEGIBLE_ZOOM,
  nodeAt,
  nodesInRect,
  revealNode,
  visibleRect,
  zoomAt,
} from "../../core/graph/viewport";
import type { SessionId } from "../../core/session/ids";
import type { TreeIndex } from "../../core/session/tree";
import { GraphNodeView } from "./GraphNode";
import { openLinkedSession, showInChat, switchFromGraph } from "./graph-actions";
import { MINIMAP_WIDTH, Minimap } from "./Minimap";
import { NodeDetails } from "./NodeDetails";
import { NodeMenu } from "./NodeMenu";
import { buildPaths } from "./paths";
import { READING_ZOOM, useGraphViewport } from "./use-graph-viewport";
import { usePanZoomInput } from "./use-pan-zoom-input";

/** Zoom buttons and +/- keys multiply the zoom by this. */
const ZOOM_STEP = 1.5;
/** The minimap shows when the graph at a legible zoom is this many times the viewport's size. */
const MINIMAP_WHEN_LARGER = 2;
/** The minimap's column beside the graph (its width plus padding), px. */
const MINIMAP_COLUMN_PX = MINIMAP_WIDTH + 17;
/** Narrower than this (a phone), no minimap: the graph needs the room. */
const MINIMAP_MIN_PANEL_PX = 420;
/** Height of the zoom bar over the top of the viewport, px (nodes are revealed below it). */
const TOP_INSET_PX = 44;

type Menu = {
  key: string;
  x: number;
  y: number;
  /** "above": (x, y) is the bottom-left corner (a menu opened from the details panel's button). */
  placement: "below" | "above";
  labelling: boolean;
  returnTo: HTMLElement | null;
};

export type GraphViewHandle = {
  /** Select a node by key and pan it into view; `focus` also moves keyboard focus to it. */
  select: (key: string, opts?: { focus?: boolean }) => void;
};

/**
 * The graph itself: pan (drag), zoom (wheel, pinch, buttons), a minimap, and only the nodes in view
 * rendered (culled from the pan/zoom transform with overscan, use-graph-viewport.ts; zoomed out,
 * the nodes are drawn on a canvas, overview.ts). A `tree` of `treeitem`s with a roving tabindex:
 * arrows move in the model (so they reach nodes that are not drawn), and the focused node is
 * always rendered and panned into view. Node actions, details and the minimap sit on top.
 */
export function GraphView({
  model,
  index,
  sessionId,
  onToggleCollapse,
  ref,
}: {
  model: GraphModel;
  index: TreeIndex;
  sessionId: SessionId;
  /** Collapse or expand the node with this key (the collapsed set is the panel's). */
  onToggleCollapse: (key: string) => void;
  ref?: Ref<GraphViewHandle>;
}) {
  const vp = useGraphViewport(model);
  const { viewportRef, worldRef, canvasRef, miniRectRef, zoomLabelRef, size, frame, viewRef, sizeRef, modelRef } = vp;
  const { applyView, animateTo, latestView, minZoom, local } = vp;
  const treeRef = useRef<HTMLDivElement>(null);
  const hintId = useId();

  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [hoverKey, setHoverKey] = useState<string | null>(null);
  const [menu, setMenu] = useState<Menu | null>(null);
  const pendingFocus = useRef(false);
  const minimapShown = useRef(false);

  const resolve = (key: string | null) => (key === null ? -1 : (model.byKey.get(key) ?? -1));
  const focusedIndex = (() => {
    const i = resolve(focusedKey);
    if (i >= 0) return i;
    return model.currentIndex >= 0 ? model.currentIndex : (model.roots[0] ?? -1);
  })();
  const selectedIndex = resolve(selectedKey);

  // ---- focus and selection --------------------------------------------------------------------

  /** What covers the edges of the viewport: the zoom bar on top, the details panel below or beside. */
  const insets = (): Insets => {
    const { width, height } = sizeRef.current;
    const panel = viewportRef.current?.querySelector<HTMLElement>(".graph-details:not(.preview)");
    if (!panel) return { top: TOP_INSET_PX, right: 0, bottom: 0, left: 0 };
    if (panel.offsetLeft > width / 2) return { top: TOP_INSET_PX, right: width - panel.offsetLeft, bottom: 0, left: 0 };
    return { top: TOP_INSET_PX, right: 0, bottom: height - panel.offsetTop, left: 0 };
  };

  // Follow the leaf: when it moves (a new message, a switch) and the old one was in view.
  const lastCurrent = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: viewRef and sizeRef are refs (use-graph-viewport.ts)
  useEffect(() => {
    const key = model.nodes[model.currentIndex]?.key ?? null;
    const previous = lastCurrent.current;
    lastCurrent.current = key;
    if (previous === null || key === null || previous === key) return;
    setFocusedKey((f) => (f === previous ? key : f));
    const v = viewRef.current;
    const before = model.byKey.get(previous);
    if (!v || before === undefined) return;
    const vis = visibleRect(v, sizeRef.current);
    const b = model.nodes[before]!;
    if (b.x >= vis.x0 && b.x <= vis.x1 && b.y >= vis.y0 && b.y <= vis.y1) {
      animateTo(revealNode(model, model.currentIndex, v, sizeRef.current, 24, insets()));
    }
  }, [model, animateTo]);

  const reveal = (i: number, animate: boolean) => {
    const v = viewRef.current;
    if (!v) return;
    const reading = v.k < DETAIL_ZOOM ? { ...v, k: READING_ZOOM } : v;
    const target =
      reading === v
        ? revealNode(modelRef.current, i, v, sizeRef.current, 24, insets())
        : centerOn(modelRef.current, i, reading, sizeRef.current);
    if (target === v) return;
    if (animate) animateTo(target);
    else applyView(target);
  };

  // A selected node the details panel would cover moves into the uncovered part (the panel has
  // just been laid out, so its size is known here).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection changes
  useLayoutEffect(() => {
    const v = viewRef.current;
    if (selectedIndex < 0 || !v || v.k < DETAIL_ZOOM) return;
    const target = revealNode(model, selectedIndex, v, sizeRef.current, 16, insets());
    if (target !== v) animateTo(target);
  }, [selectedKey]);

  const moveTo = (i: number, opts: { focus: boolean; animate?: boolean }) => {
    const node = model.nodes[i];
    if (!node) return;
    setFocusedKey(node.key);
    setSelectedKey(node.key);
    setMenu(null);
    if (opts.focus) pendingFocus.current = true;
    reveal(i, opts.animate ?? false);
  };

  useImperativeHandle(ref, () => ({
    select: (key, opts) => {
      const i = modelRef.current.byKey.get(key);
      if (i === undefined) return;
      setFocusedKey(key);
      setSelectedKey(key);
      setMenu(null);
      if (opts?.focus) pendingFocus.current = true;
      reveal(i, true);
    },
  }));

  // After a keyboard move, the focused node is rendered: give it DOM focus (without the browser
  // scrolling the viewport: the transform does that).
  useLayoutEffect(() => {
    if (!pendingFocus.current) return;
    pendingFocus.current = false;
    const key = model.nodes[focusedIndex]?.key;
    if (!key) return;
    treeRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
  });

  /** Shows every entry of a collapsed run; focus lands on its first one. */
  const expandRun = (i: number, focus: boolean) => {
    const first = model.nodes[i]?.run?.entries[0];
    if (!first) return;
    onToggleCollapse(model.nodes[i]!.key);
    setFocusedKey(first.id);
    setSelectedKey(null);
    if (focus) pendingFocus.current = true;
  };

  const activate = (i: number) => {
    const node = model.nodes[i];
    if (!node) return;
    if (node.run) {
      expandRun(i, true);
      return;
    }
    if (!node.entry) {
      if (node.handoff) openLinkedSession(node.handoff.sessionId);
      return;
    }
    if (node.isLeaf) showInChat(node.entry.id);
    else void switchFromGraph(sessionId, node.entry.id);
  };

  const toggleCollapse = (i: number) => {
    const node = model.nodes[i];
    if (node?.run) expandRun(i, true);
    else if (node && (node.children.length > 0 || node.collapsed)) onToggleCollapse(node.key);
  };

  const openMenu = useCallback(
    (key: string, x: number, y: number, returnTo: HTMLElement | null, placement: Menu["placement"] = "below") => {
      setMenu({ key, x, y, placement, labelling: false, returnTo });
    },
    [],
  );
  const closeMenu = useCallback((refocus: boolean) => {
    setMenu((m) => {
      if (refocus && m?.returnTo) requestAnimationFrame(() => m.returnTo?.focus({ preventScroll: true }));
      return null;
    });
  }, []);

  const menuAtNode = (i: number) => {
    const v = viewRef.current;
    const node = model.nodes[i];
    if (!v || !node) return;
    const el = treeRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(node.key)}"]`) ?? null;
    openMenu(node.key, (node.x + 40) * v.k + v.x, (node.y + 50) * v.k + v.y, el);
  };

  const onTreeKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget && !(e.target as HTMLElement).matches('[role="treeitem"]')) return;
    const i = focusedIndex;
    const moves: Record<string, GraphMove> = {
      ArrowUp: "parent",
      ArrowDown: "first-child",
      ArrowLeft: "previous-sibling",
      ArrowRight: "next-sibling",
      Home: "first",
      End: "current",
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      const target = moveFrom(model, i, move);
      if (target >= 0) moveTo(target, { focus: true });
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      activate(i);
    } else if (e.key === " ") {
      e.preventDefault();
      toggleCollapse(i);
    } else if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) {
      e.preventDefault();
      menuAtNode(i);
    } else if (e.key === "+" || e.key === "=") {
      e.preventDefault();
      zoomBy(ZOOM_STEP);
    } else if (e.key === "-") {
      e.preventDefault();
      zoomBy(1 / ZOOM_STEP);
    } else if (e.key === "Escape" && selectedKey !== null) {
      // Closes the details first (full screen, the panel's own Escape, waits for the next press).
      e.preventDefault();
      setSelectedKey(null);
    }
  };

  const indexOfTarget = (target: EventTarget) => {
    const el = (target as Element).closest?.<HTMLElement>("[data-index]");
    return el ? Number(el.dataset.index) : -1;
  };

  // Zoomed out to dots, a tap on one zooms in to it.
  const onTap = (e: ReactPointerEvent<HTMLDivElement>) => {
    const v = viewRef.current;
    if (!v || !vp.frameRef.current?.overview || indexOfTarget(e.target) >= 0) return;
    const p = local(e.clientX, e.clientY);
    const hit = nodeAt(model, (p.x - v.x) / v.k, (p.y - v.y) / v.k, 14 / v.k);
    if (hit < 0) return;
    const node = model.nodes[hit]!;
    setFocusedKey(node.key);
    setSelectedKey(node.key);
    animateTo(centerOn(model, hit, { ...v, k: READING_ZOOM }, sizeRef.current));
  };
  const { onPointerDown, onPointerMove, onPointerEnd, dragged } = usePanZoomInput(vp, onTap);

  const zoomBy = (factor: number) => {
    const v = latestView();
    if (!v) return;
    animateTo(zoomAt(v, v.k * factor, size.width / 2, size.height / 2, minZoom()));
  };

  // ---- what to render -------------------------------------------------------------------------

  const overview = frame?.overview ?? false;
  // Zoomed out, the canvas draws the nodes (overview.ts): the DOM holds only the focused one.
  const inView = useMemo(() => (frame && !frame.overview ? nodesInRect(model, frame.rect) : []), [model, frame]);
  const domNodes = useMemo(() => {
    const list = [...inView];
    if (focusedIndex >= 0 && !inView.includes(focusedIndex)) list.push(focusedIndex);
    return list;
  }, [inView, focusedIndex]);

  const hovered = resolve(hoverKey);
  const detailIndex = hovered >= 0 ? hovered : selectedIndex;
  const strongCompaction = (() => {
    const n = model.nodes[detailIndex];
    return n?.kind === "compaction" && n.entry ? n.entry.id : null;
  })();
  const paths = useMemo(() => buildPaths(model, inView, { strongCompaction }), [model, inView, strongCompaction]);

  // Worth a minimap only when the graph is much bigger than the viewport at a legible zoom, and
  // there is room for its column beside the graph (it never covers nodes). Decided on the width the
  // graph has without the column, so showing it does not change the answer.
  const b = model.bounds;
  const fullWidth = size.width + (minimapShown.current ? MINIMAP_COLUMN_PX : 0);
  const showMinimap =
    size.height > 0 &&
    model.nodes.length > 0 &&
    fullWidth >= MINIMAP_MIN_PANEL_PX &&
    ((b.maxY - b.minY) * LEGIBLE_ZOOM > MINIMAP_WHEN_LARGER * size.height ||
      (b.maxX - b.minX) * LEGIBLE_ZOOM > MINIMAP_WHEN_LARGER * fullWidth);
  minimapShown.current = showMinimap;

  const detailNode = model.nodes[detailIndex];
  const menuNode = menu ? model.nodes[resolve(menu.key)] : undefined;

  return (
    <div className="graph-body">
      <div
        ref={viewportRef}
        className={`graph-viewport${overview ? " overview" : ""}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onScroll={(e) => {
          // Focus can make the browser scroll an overflow:hidden box: the transform is the only scroll.
          e.currentTarget.scrollTop = 0;
          e.currentTarget.scrollLeft = 0;
        }}
      >
        <canvas ref={canvasRef} className="graph-canvas" />
        <div ref={worldRef} className="graph-world">
          <svg className="graph-svg" width="1" height="1" aria-hidden="true">
            <path className="graph-band" d={paths.folded} />
            <path className="graph-band strong" d={paths.foldedStrong} />
            <path className="graph-edge" d={paths.edges} />
            <path className="graph-edge active" d={paths.activeEdges} />
            <path className="graph-link" d={paths.links} />
            <path className="graph-bracket" d={paths.bracket} />
          </svg>
          {!overview && (
            <div className="graph-collapsers">
              {domNodes.map((i) => {
                const node = model.nodes[i]!;
                if (node.children.length < 2 && !node.collapsed) return null;
                return (
                  <button
                    key={node.key}
                    type="button"
                    tabIndex={-1}
                    data-no-pan=""
                    className={`graph-collapser${node.collapsed ? " collapsed" : ""}`}
                    style={{ left: node.x, top: node.y + 50 }}
                    aria-label={node.collapsed ? "Expand branch" : "Collapse branch"}
                    title={node.collapsed ? `Show ${node.hiddenCount} hidden` : "Collapse the branches below"}
                    onClick={() => toggleCollapse(i)}
                  >
                    {node.collapsed ? `+${node.hiddenCount}` : "−"}
                  </button>
                );
              })}
            </div>
          )}
          <div
            ref={treeRef}
            role="tree"
            aria-label="Conversation tree"
            aria-describedby={hintId}
            className="graph-tree"
            onKeyDown={onTreeKeyDown}
            onFocus={(e) => {
              const i = indexOfTarget(e.target);
              if (i >= 0) setFocusedKey(model.nodes[i]!.key);
            }}
            onClick={(e) => {
              const i = indexOfTarget(e.target);
              if (i < 0 || dragged.current) return;
              const node = model.nodes[i]!;
              setMenu(null);
              if (node.run) {
                expandRun(i, false);
                return;
              }
              setFocusedKey(node.key);
              setSelectedKey(node.key);
              if (node.entry && node.onActivePath) showInChat(node.entry.id);
            }}
            onDoubleClick={(e) => {
              const i = indexOfTarget(e.target);
              const node = model.nodes[i];
              if (node?.entry && !node.onActivePath) void switchFromGraph(sessionId, node.entry.id);
            }}
            onContextMenu={(e) => {
              const i = indexOfTarget(e.target);
              if (i < 0) return;
              e.preventDefault();
              const node = model.nodes[i]!;
              setFocusedKey(node.key);
              setSelectedKey(node.key);
              const p = local(e.clientX, e.clientY);
              openMenu(node.key, p.x, p.y, e.target instanceof HTMLElement ? e.target.closest("[data-index]") : null);
            }}
            onMouseOver={(e) => {
              const node = model.nodes[indexOfTarget(e.target)];
              setHoverKey(node?.kind === "compaction" ? node.key : null);
            }}
            onMouseLeave={() => setHoverKey(null)}
          >
            {domNodes.map((i) => {
              const node = model.nodes[i]!;
              return (
                <GraphNodeView
                  key={node.key}
                  model={model}
                  node={node}
                  focused={i === focusedIndex}
                  selected={i === selectedIndex}
                  current={i === model.currentIndex}
                  strongFold={strongCompaction !== null && node.foldedBy === strongCompaction}
                />
              );
            })}
          </div>
        </div>

        <p id={hintId} className="graph-hint">
          Arrows move · Enter switches here · Space folds · Shift+F10 actions · scroll zooms
        </p>

        {model.nodes.length === 0 && (
          <p className="graph-empty">No messages yet. The conversation’s tree grows here.</p>
        )}

        <div className="graph-zoom" data-no-pan="">
          <button type="button" aria-label="Zoom out" title="Zoom out (−)" onClick={() => zoomBy(1 / ZOOM_STEP)}>
            −
          </button>
          <span ref={zoomLabelRef} className="graph-zoom-level" aria-hidden="true" />
          <button type="button" aria-label="Zoom in" title="Zoom in (+)" onClick={() => zoomBy(ZOOM_STEP)}>
            +
          </button>
          <button
            type="button"
            onClick={() => animateTo(fitPathView(model, size))}
            title="Fit the conversation you are in (root to here), readably"
          >
            Fit
          </button>
          <button type="button" onClick={() => animateTo(fitView(model, size))} title="Show the whole graph">
            Show all
          </button>
          <button
            type="button"
            disabled={model.currentIndex < 0}
            title="Go to where you are in the conversation"
            onClick={() => moveTo(model.currentIndex, { focus: false, animate: true })}
          >
            Current
          </button>
        </div>

        {detailNode && (
          <NodeDetails
            model={model}
            node={detailNode}
            index={index}
            preview={detailIndex !== selectedIndex}
            menuOpen={menu !== null}
            onClose={() => setSelectedKey(null)}
            onSwitch={() => detailNode.entry && void switchFromGraph(sessionId, detailNode.entry.id)}
            onShowInChat={() => detailNode.entry && showInChat(detailNode.entry.id)}
            onOpenSession={() => detailNode.handoff && openLinkedSession(detailNode.handoff.sessionId)}
            onGoTo={(entryId) => {
              const i = model.nodeOfEntry.get(entryId);
              if (i !== undefined) moveTo(i, { focus: false, animate: true });
            }}
            onMenu={(button) => {
              const box = button.getBoundingClientRect();
              const p = local(box.right, box.top);
              if (menu) closeMenu(false);
              else openMenu(detailNode.key, p.x - 200, p.y - 6, button, "above");
            }}
          />
        )}

        {menu && menuNode && (
          <NodeMenu
            key={`${menu.key}:${menu.labelling}`}
            node={menuNode}
            sessionId={sessionId}
            anchor={{ x: menu.x, y: menu.y, placement: menu.placement, bounds: size }}
            opener={menu.returnTo}
            startLabelling={menu.labelling}
            onClose={closeMenu}
            onToggleCollapse={() => toggleCollapse(menuNode.index)}
          />
        )}
      </div>
      {showMinimap && (
        <div className="graph-minimap-column">
          <Minimap
            model={model}
            rectRef={miniRectRef}
            onJump={(gx, gy) => {
              const v = viewRef.current;
              if (v) applyView({ k: v.k, x: size.width / 2 - gx * v.k, y: size.height / 2 - gy * v.k });
            }}
          />
        </div>
      )}
    </div>
  );
}
