import { describe, expect, it } from "vitest";
import type { Session } from "../session/entries";
import { asSessionId } from "../session/ids";
import { sessionLineage } from "./lineage";

const session = (id: string, createdAt: number, parent?: string): Session => ({
  id: asSessionId(id),
  title: `Chat ${id}`,
  titleSource: "auto",
  createdAt,
  updatedAt: createdAt,
  leafId: null,
  ...(parent ? { parentSessionId: asSessionId(parent) } : {}),
});

const ids = (steps: ReturnType<typeof sessionLineage>) => steps.map((s) => [s.generation, s.sessions.map((x) => x.id)]);

describe("sessionLineage", () => {
  it("chains the sessions a handoff links, oldest first, around the current one", () => {
    const all = [
      session("a", 1),
      session("b", 2, "a"),
      session("c", 3, "b"),
      session("d", 5, "c"),
      session("d2", 4, "c"),
      session("other", 6),
    ];
    expect(ids(sessionLineage(all, asSessionId("c")))).toEqual([
      [-2, ["a"]],
      [-1, ["b"]],
      [0, ["c"]],
      [1, ["d2", "d"]],
    ]);
    expect(ids(sessionLineage(all, asSessionId("other")))).toEqual([[0, ["other"]]]);
  });

  it("is empty for an unknown session and survives a cycle", () => {
    expect(sessionLineage([], asSessionId("x"))).toEqual([]);
    const loop = [session("a", 1, "b"), session("b", 2, "a")];
    expect(ids(sessionLineage(loop, asSessionId("a")))).toEqual([
      [-1, ["b"]],
      [0, ["a"]],
    ]);
  });
});
