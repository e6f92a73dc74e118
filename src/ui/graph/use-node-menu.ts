/**
 * Where the history graph's node menu (NodeMenu.tsx) is open, if anywhere: opened at a pointer (a
 * right-click), at a node (Shift+F10, the context-menu key) or above the details panel's button;
 * closing it can give focus back to where it was opened from.
 */
import { type RefObject, useCallback, useState } from "react";
import type { GraphNode } from "../../core/graph/node";
import type { View } from "../../core/graph/viewport";

export type OpenMenu = {
  key: string;
  x: number;
  y: number;
  /** "above": (x, y) is the bottom-left corner (a menu opened from the details panel's button). */
  placement: "below" | "above";
  labelling: boolean;
  returnTo: HTMLElement | null;
};

export function useNodeMenu({
  viewRef,
  treeRef,
}: {
  viewRef: RefObject<View | null>;
  /** The tree whose `[data-key]` node gets focus back when a menu opened at it closes. */
  treeRef: RefObject<HTMLDivElement | null>;
}) {
  const [menu, setMenu] = useState<OpenMenu | null>(null);

  /** Opens the menu of node `key` at (x, y), viewport pixels; `returnTo` gets focus back on close. */
  const open = useCallback(
    (key: string, x: number, y: number, returnTo: HTMLElement | null, placement: OpenMenu["placement"] = "below") => {
      setMenu({ key, x, y, placement, labelling: false, returnTo });
    },
    [],
  );
  /** `refocus`: give focus back to where the menu was opened from. */
  const close = useCallback((refocus: boolean) => {
    setMenu((m) => {
      if (refocus && m?.returnTo) requestAnimationFrame(() => m.returnTo?.focus({ preventScroll: true }));
      return null;
    });
  }, []);
  /** Closes it without moving focus (the user moved on). */
  const dismiss = useCallback(() => setMenu(null), []);

  /** Opens it below a node, as drawn (from the keyboard). */
  const openAtNode = (node: GraphNode) => {
    const v = viewRef.current;
    if (!v) return;
    const el = treeRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(node.key)}"]`) ?? null;
    open(node.key, (node.x + 40) * v.k + v.x, (node.y + 50) * v.k + v.y, el);
  };

  return { menu, open, close, dismiss, openAtNode };
}
