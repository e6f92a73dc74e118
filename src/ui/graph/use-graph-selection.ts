/**
 * The history graph's focus and selection. The focused node holds the roving tabindex (the
 * current node until the user moves); the selected one has its details open. Both are kept by
 * key, so they survive a rebuilt model. Moving to a node selects it and pans it into view (at a
 * readable zoom, clear of the zoom bar and the details panel); a keyboard move also gives it DOM
 * focus once it is rendered. When the leaf moves (a new message, a switch) and the old one was in
 * view, focus and view follow it.
 */
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { GraphModel } from "../../core/graph/model";
import { centerOn, DETAIL_ZOOM, type Insets, revealNode, visibleRect } from "../../core/graph/viewport";
import { type GraphViewport, READING_ZOOM } from "./use-graph-viewport";

/** Height of the zoom bar over the top of the viewport, px (nodes are revealed below it). */
const TOP_INSET_PX = 44;

type MoveOptions = { focus: boolean; animate?: boolean };

export type GraphSelection = {
  /** The node with the roving tabindex: the focused key's, else the current node, else the first root. */
  focusedIndex: number;
  /** -1 when nothing is selected (or the selected key is not in this model). */
  selectedIndex: number;
  /** The selected node's key, kept while the model does not show it (filtered out, collapsed). */
  selectedKey: string | null;
  /** Focus and select node `i`, close what `onMove` closes, and pan it into view. */
  moveTo(i: number, opts: MoveOptions): void;
  /** The same by key (animated); an unknown key does nothing. */
  select(key: string, opts?: { focus?: boolean }): void;
  /** Focus and select without panning (a click, a tap: the node is where the user pointed). */
  pick(key: string): void;
  /** Focus without selecting (the tree's focus moved there). */
  focus(key: string): void;
  /** Focus `key` with nothing selected, and give it DOM focus once rendered when `domFocus` (a run just expanded). */
  focusOnly(key: string, domFocus: boolean): void;
  deselect(): void;
};

export function useGraphSelection({
  model,
  vp,
  treeRef,
  onMove,
}: {
  model: GraphModel;
  vp: GraphViewport;
  /** The tree whose `[data-key]` nodes take DOM focus. */
  treeRef: RefObject<HTMLDivElement | null>;
  /** Called on every move (the graph closes its menu). */
  onMove: () => void;
}): GraphSelection {
  const { viewportRef, viewRef, sizeRef, modelRef, animateTo, applyView } = vp;
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const pendingFocus = useRef(false);

  const resolve = (key: string | null) => (key === null ? -1 : (model.byKey.get(key) ?? -1));
  const focusedIndex = (() => {
    const i = resolve(focusedKey);
    if (i >= 0) return i;
    return model.currentIndex >= 0 ? model.currentIndex : (model.roots[0] ?? -1);
  })();
  const selectedIndex = resolve(selectedKey);

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

  // After a keyboard move, the focused node is rendered: give it DOM focus (without the browser
  // scrolling the viewport: the transform does that).
  useLayoutEffect(() => {
    if (!pendingFocus.current) return;
    pendingFocus.current = false;
    const key = model.nodes[focusedIndex]?.key;
    if (!key) return;
    treeRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
  });

  const goTo = (key: string, i: number, focus: boolean, animate: boolean) => {
    setFocusedKey(key);
    setSelectedKey(key);
    onMove();
    if (focus) pendingFocus.current = true;
    reveal(i, animate);
  };

  return {
    focusedIndex,
    selectedIndex,
    selectedKey,
    moveTo: (i, opts) => {
      const node = model.nodes[i];
      if (node) goTo(node.key, i, opts.focus, opts.animate ?? false);
    },
    select: (key, opts) => {
      const i = modelRef.current.byKey.get(key);
      if (i !== undefined) goTo(key, i, opts?.focus ?? false, true);
    },
    pick: (key) => {
      setFocusedKey(key);
      setSelectedKey(key);
    },
    focus: setFocusedKey,
    focusOnly: (key, domFocus) => {
      setFocusedKey(key);
      setSelectedKey(null);
      if (domFocus) pendingFocus.current = true;
    },
    deselect: () => setSelectedKey(null),
  };
}
