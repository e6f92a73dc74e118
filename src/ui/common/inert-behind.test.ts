// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { inertBehind } from "./inert-behind";

const add = (attrs: Record<string, string> = {}) => {
  const el = document.createElement("div");
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.body.append(el);
  return el;
};

afterEach(() => document.body.replaceChildren());

describe("inertBehind", () => {
  it("makes the page behind a modal inert, keeps exempt notices live, and restores on close", () => {
    const root = add();
    const notices = add({ "data-modal-exempt": "" });
    const modal = add();
    const undo = inertBehind(modal);
    expect([root.hasAttribute("inert"), notices.hasAttribute("inert"), modal.hasAttribute("inert")]).toEqual([
      true,
      false,
      false,
    ]);
    undo();
    expect(root.hasAttribute("inert")).toBe(false);
  });

  it("a dialog over a dialog: the outer one is inert until the inner one closes, the page stays inert", () => {
    const root = add();
    const outer = add();
    const undoOuter = inertBehind(outer);
    const inner = add();
    const undoInner = inertBehind(inner);
    expect([root.hasAttribute("inert"), outer.hasAttribute("inert"), inner.hasAttribute("inert")]).toEqual([
      true,
      true,
      false,
    ]);
    undoInner();
    expect([root.hasAttribute("inert"), outer.hasAttribute("inert")]).toEqual([true, false]);
    undoOuter();
    expect(root.hasAttribute("inert")).toBe(false);
  });
});
