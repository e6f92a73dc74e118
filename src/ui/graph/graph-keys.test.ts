import { describe, expect, it } from "vitest";
import { graphKeyCommand } from "./graph-keys";

describe("graphKeyCommand", () => {
  it("arrows, Home and End move in the tree", () => {
    expect(graphKeyCommand("ArrowUp", false)).toEqual({ kind: "move", move: "parent" });
    expect(graphKeyCommand("ArrowDown", false)).toEqual({ kind: "move", move: "first-child" });
    expect(graphKeyCommand("ArrowLeft", false)).toEqual({ kind: "move", move: "previous-sibling" });
    expect(graphKeyCommand("ArrowRight", false)).toEqual({ kind: "move", move: "next-sibling" });
    expect(graphKeyCommand("Home", false)).toEqual({ kind: "move", move: "first" });
    expect(graphKeyCommand("End", false)).toEqual({ kind: "move", move: "current" });
  });

  it("Enter switches, Space folds, the menu key and Shift+F10 open the actions", () => {
    expect(graphKeyCommand("Enter", false)).toEqual({ kind: "activate" });
    expect(graphKeyCommand(" ", false)).toEqual({ kind: "toggle-collapse" });
    expect(graphKeyCommand("ContextMenu", false)).toEqual({ kind: "menu" });
    expect(graphKeyCommand("F10", true)).toEqual({ kind: "menu" });
    expect(graphKeyCommand("F10", false)).toBeNull();
  });

  it("+ (or =) and - zoom, Escape closes the details", () => {
    expect(graphKeyCommand("+", false)).toEqual({ kind: "zoom", direction: "in" });
    expect(graphKeyCommand("=", false)).toEqual({ kind: "zoom", direction: "in" });
    expect(graphKeyCommand("-", false)).toEqual({ kind: "zoom", direction: "out" });
    expect(graphKeyCommand("Escape", false)).toEqual({ kind: "close-details" });
  });

  it("leaves every other key alone, names of Object's own properties included", () => {
    for (const key of ["a", "Tab", "PageDown", "toString", "constructor"])
      expect(graphKeyCommand(key, false)).toBeNull();
  });
});
