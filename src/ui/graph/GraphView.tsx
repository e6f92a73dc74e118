import {
  type PointerEvent as ReactPointerEvent,
  type Ref,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from "react";
import type { GraphModel } from "../../core/graph/model";
import { moveFrom } from "../../core/graph/navigation";
import { buildOutline } from "../../core/graph/outline";
import { centerOn, fitAllView, nodesInRect, zoomAt } from "../../core/graph/viewport";
import type { SessionId } from "../../core/session/ids";
import type { TreeIndex } from "../../core/session/tree";
import { GraphLegend } from "./GraphLegend";
import { GraphNodeView } from "./GraphNode";
import { GraphOutline } from "./GraphOutline";
import { openLinkedSession, showInChat, switchFromGraph } from "./graph-actions";
import { Minimap, showsMinimap } from "./Minimap";
import { NodeDetails } from "./NodeDetails";
import { NodeMenu } from "./NodeMenu";
import { buildPaths } from "./paths";
import { useGraphKeyboard } from "./use-graph-keyboard";
import { useGraphSelection } from "./use-graph-selection";
import { READING_ZOOM, useGraphViewport } from "./use-graph-viewport";
import { useNodeMenu } from "./use-node-menu";
import { usePanZoomInput } from "./use-pan-zoom-input";

/** Zoom buttons and +/- keys multiply the zoom by this. */
const ZOOM_STEP = 1.5;

export type GraphViewHandle = {
  /** Select a node by key and pan it into view; `focus` also moves keyboard focus to it. */
  select: (key: string, opts?: { focus?: boolean }) => void;
};

/**
 * The graph itself: pan (drag), zoom (wheel, pinch, buttons), a minimap, and only the nodes in view
 * rendered (culled from the pan/zoom transform with overscan, use-graph-viewport.ts; zoomed out,
 * and at "Fit" on a graph too big to read whole, the labelled outline, GraphOutline.tsx). A `tree` of `treeitem`s with a roving tabindex:
 * arrows move in the model (so they reach nodes that are not drawn), and the focused node is
 * always rendered and panned into view (use-graph-selection.ts, use-graph-keyboard.ts). Node
 * actions (use-node-menu.ts), details and the minimap sit on top.
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
  const { viewportRef, worldRef, miniRectRef, zoomLabelRef, size, frame, viewRef, sizeRef } = vp;
  const { applyView, animateTo, latestView, minZoom, local } = vp;
  const treeRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const minimapShown = useRef(false);

  const nodeMenu = useNodeMenu({ viewRef, treeRef });
  const { menu } = nodeMenu;
  const selection = useGraphSelection({ model, vp, treeRef, onMove: nodeMenu.dismiss });
  const { focusedIndex, selectedIndex } = selection;
  const [hoverKey, setHoverKey] = useState<string | null>(null);

  useImperativeHandle(ref, () => ({ select: selection.select }));

  // ---- node actions ---------------------------------------------------------------------------

  /** Shows every entry of a collapsed run; focus lands on its first one. */
  const expandRun = (i: number, focus: boolean) => {
    const first = model.nodes[i]?.run?.entries[0];
    if (!first) return;
    onToggleCollapse(model.nodes[i]!.key);
    selection.focusOnly(first.id, focus);
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

  const zoomBy = (factor: number) => {
    const v = latestView();
    if (!v) return;
    animateTo(zoomAt(v, v.k * factor, size.width / 2, size.height / 2, minZoom()));
  };

  const onTreeKeyDown = useGraphKeyboard({
    move: (move) => {
      const target = moveFrom(model, focusedIndex, move);
      if (target >= 0) selection.moveTo(target, { focus: true });
    },
    activate: () => activate(focusedIndex),
    toggleCollapse: () => toggleCollapse(focusedIndex),
    openMenu: () => {
      const node = model.nodes[focusedIndex];
      if (node) nodeMenu.openAtNode(node);
    },
    zoom: (direction) => zoomBy(direction === "in" ? ZOOM_STEP : 1 / ZOOM_STEP),
    closeDetails: () => {
      if (selection.selectedKey === null) return false;
      selection.deselect();
      return true;
    },
  });

  const indexOfTarget = (target: EventTarget) => {
    const el = (target as Element).closest?.<HTMLElement>("[data-index]");
    return el ? Number(el.dataset.index) : -1;
  };

  // Zoomed out to the outline, a tap on an item zooms in to its first node.
  const onTap = (e: ReactPointerEvent<HTMLDivElement>) => {
    const v = viewRef.current;
    const el = (e.target as Element).closest?.<HTMLElement>("[data-outline]");
    if (!v || !vp.frameRef.current?.overview || !el) return;
    const hit = model.byKey.get(el.dataset.key ?? "");
    if (hit === undefined) return;
    selection.pick(model.nodes[hit]!.key);
    animateTo(centerOn(model, hit, { ...v, k: READING_ZOOM }, sizeRef.current));
  };
  const { onPointerDown, onPointerMove, onPointerEnd, dragged } = usePanZoomInput(vp, onTap);

  // ---- what to render -------------------------------------------------------------------------

  const overview = frame?.overview ?? false;
  // Zoomed out, the outline draws the graph: the tree holds only the focused node.
  const outline = useMemo(() => (overview ? buildOutline(model, size) : null), [overview, model, size]);
  const inView = useMemo(() => (frame && !frame.overview ? nodesInRect(model, frame.rect) : []), [model, frame]);
  const domNodes = useMemo(() => {
    const list = [...inView];
    if (focusedIndex >= 0 && !inView.includes(focusedIndex)) list.push(focusedIndex);
    return list;
  }, [inView, focusedIndex]);

  const hovered = hoverKey === null ? -1 : (model.byKey.get(hoverKey) ?? -1);
  const detailIndex = hovered >= 0 ? hovered : selectedIndex;
  const strongCompaction = (() => {
    const n = model.nodes[detailIndex];
    return n?.kind === "compaction" && n.entry ? n.entry.id : null;
  })();
  const paths = useMemo(() => buildPaths(model, inView, { strongCompaction }), [model, inView, strongCompaction]);

  const showMinimap = showsMinimap(model, size, minimapShown.current);
  minimapShown.current = showMinimap;

  const detailNode = model.nodes[detailIndex];
  const menuIndex = menu ? model.byKey.get(menu.key) : undefined;
  const menuNode = menuIndex === undefined ? undefined : model.nodes[menuIndex];

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
        {outline && <GraphOutline outline={outline} />}
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
              if (i >= 0) selection.focus(model.nodes[i]!.key);
            }}
            onClick={(e) => {
              const i = indexOfTarget(e.target);
              if (i < 0 || dragged.current) return;
              const node = model.nodes[i]!;
              nodeMenu.dismiss();
              if (node.run) {
                expandRun(i, false);
                return;
              }
              selection.pick(node.key);
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
              selection.pick(node.key);
              const p = local(e.clientX, e.clientY);
              nodeMenu.open(
                node.key,
                p.x,
                p.y,
                e.target instanceof HTMLElement ? e.target.closest("[data-index]") : null,
              );
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
            onClick={() => animateTo(fitAllView(model, size))}
            title="The whole tree in view, labelled (a large one as an outline of groups)"
          >
            Fit
          </button>
          <button
            type="button"
            disabled={model.currentIndex < 0}
            title="Go to where you are in the conversation"
            onClick={() => selection.moveTo(model.currentIndex, { focus: false, animate: true })}
          >
            Current
          </button>
          <GraphLegend />
        </div>

        {/* In the outline the node is not drawn: its details come back with it (a tap zooms in). */}
        {detailNode && !overview && (
          <NodeDetails
            model={model}
            node={detailNode}
            index={index}
            preview={detailIndex !== selectedIndex}
            menuOpen={menu !== null}
            onClose={selection.deselect}
            onSwitch={() => detailNode.entry && void switchFromGraph(sessionId, detailNode.entry.id)}
            onShowInChat={() => detailNode.entry && showInChat(detailNode.entry.id)}
            onOpenSession={() => detailNode.handoff && openLinkedSession(detailNode.handoff.sessionId)}
            onGoTo={(entryId) => {
              const i = model.nodeOfEntry.get(entryId);
              if (i !== undefined) selection.moveTo(i, { focus: false, animate: true });
            }}
            onMenu={(button) => {
              const box = button.getBoundingClientRect();
              const p = local(box.right, box.top);
              if (menu) nodeMenu.close(false);
              else nodeMenu.open(detailNode.key, p.x - 200, p.y - 6, button, "above");
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
            onClose={nodeMenu.close}
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
