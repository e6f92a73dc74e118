/**
 * The history graph's keyboard (a `tree` of `treeitem`s with a roving tabindex): keys on the tree
 * or on a node become commands (graph-keys.ts), carried out by the graph's handlers. Keys typed
 * elsewhere inside the tree (a label being edited in a menu) are left alone.
 */
import { type KeyboardEvent, useCallback, useRef } from "react";
import type { GraphMove } from "../../core/graph/navigation";
import { graphKeyCommand } from "./graph-keys";

export type GraphKeyHandlers = {
  /** Move focus and selection from the focused node. */
  move(move: GraphMove): void;
  activate(): void;
  toggleCollapse(): void;
  openMenu(): void;
  zoom(direction: "in" | "out"): void;
  /** Close the details; false when none are open (the key is then not the graph's). */
  closeDetails(): boolean;
};

/** The tree's `onKeyDown`: stable, always calling the latest handlers. */
export function useGraphKeyboard(handlers: GraphKeyHandlers): (e: KeyboardEvent<HTMLDivElement>) => void {
  const latest = useRef(handlers);
  latest.current = handlers;
  return useCallback((e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget && !(e.target as HTMLElement).matches('[role="treeitem"]')) return;
    const command = graphKeyCommand(e.key, e.shiftKey);
    if (!command) return;
    const h = latest.current;
    switch (command.kind) {
      case "move":
        h.move(command.move);
        break;
      case "activate":
        h.activate();
        break;
      case "toggle-collapse":
        h.toggleCollapse();
        break;
      case "menu":
        h.openMenu();
        break;
      case "zoom":
        h.zoom(command.direction);
        break;
      case "close-details":
        // Closes the details first (full screen, the panel's own Escape, waits for the next press).
        if (!h.closeDetails()) return;
        break;
    }
    e.preventDefault();
  }, []);
}
