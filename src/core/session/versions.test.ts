import { describe, expect, it } from "vitest";
import { a, at, eid, u } from "../testing/entries";
import { buildTreeIndex } from "./tree";
import { versionsOf } from "./versions";

/** u1 with four replies: failed (empty), stopped (empty), stopped with text, complete. */
function replies() {
  return buildTreeIndex([
    at(u("u1", "hello"), null, 1),
    at(a("failed", [], { status: "error" }), "u1", 2),
    at(a("stopped", [], { status: "stopped" }), "u1", 3),
    at(a("partial", "Once upon", { status: "stopped" }), "u1", 4),
    at(a("done", "Once upon a time."), "u1", 5),
  ]);
}

describe("versionsOf", () => {
  it("leaves out attempts that failed or were stopped before any content", () => {
    const { siblings, position } = versionsOf(replies(), eid("done"));
    expect(siblings.map((s) => s.id)).toEqual(["partial", "done"]);
    expect(position).toBe(2);
  });

  it("counts the entry itself even when it is such an attempt", () => {
    const { siblings, position } = versionsOf(replies(), eid("failed"));
    expect(siblings.map((s) => s.id)).toEqual(["failed", "partial", "done"]);
    expect(position).toBe(1);
  });
});
