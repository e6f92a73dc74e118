/**
 * What a key does in the history graph's tree (the hint under it: "Arrows move · Enter switches
 * here · Space folds · Shift+F10 actions"). Pure: the key's name in, a command out; the graph
 * (use-graph-keyboard.ts) carries it out.
 */
import type { GraphMove } from "../../core/graph/navigation";

export type GraphKeyCommand =
  | { kind: "move"; move: GraphMove }
  /** Enter: switch here (show in chat for the leaf, open a handoff's session, expand a run). */
  | { kind: "activate" }
  /** Space: fold or unfold the branches below (expand a run). */
  | { kind: "toggle-collapse" }
  /** The context-menu key or Shift+F10: the node's actions. */
  | { kind: "menu" }
  | { kind: "zoom"; direction: "in" | "out" }
  /** Escape: close the details (only when open; else the key is left to whoever else wants it). */
  | { kind: "close-details" };

const MOVES: Readonly<Record<string, GraphMove>> = {
  ArrowUp: "parent",
  ArrowDown: "first-child",
  ArrowLeft: "previous-sibling",
  ArrowRight: "next-sibling",
  Home: "first",
  End: "current",
};

/** The command for a key (`KeyboardEvent.key`), or null for a key the graph leaves alone. */
export function graphKeyCommand(key: string, shiftKey: boolean): GraphKeyCommand | null {
  const move = Object.hasOwn(MOVES, key) ? MOVES[key] : undefined;
  if (move) return { kind: "move", move };
  switch (key) {
    case "Enter":
      return { kind: "activate" };
    case " ":
      return { kind: "toggle-collapse" };
    case "ContextMenu":
      return { kind: "menu" };
    case "F10":
      return shiftKey ? { kind: "menu" } : null;
    case "+":
    case "=":
      return { kind: "zoom", direction: "in" };
    case "-":
      return { kind: "zoom", direction: "out" };
    case "Escape":
      return { kind: "close-details" };
    default:
      return null;
  }
}
