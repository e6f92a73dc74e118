import { describe, expect, it } from "vitest";
import { COLUMN_PITCH, NODE_HEIGHT, NODE_WIDTH, placeNodes, ROW_PITCH } from "./place";

describe("placeNodes", () => {
  it("puts levels a row apart and a fork's second child in a lane of its own", () => {
    // 0 ─ 1 ─ 2
    //      \─ 3
    const p = placeNodes({ parents: [-1, 0, 1, 1], children: [[1], [2, 3], [], []] });
    expect(Array.from(p.y)).toEqual([0, ROW_PITCH, 2 * ROW_PITCH, 2 * ROW_PITCH]);
    expect(Array.from(p.x)).toEqual([0, 0, 0, COLUMN_PITCH]);
    expect(p.maxDepth).toBe(2);
    expect(p.bounds).toEqual({
      minX: -NODE_WIDTH / 2,
      maxX: COLUMN_PITCH + NODE_WIDTH / 2,
      minY: 0,
      maxY: 2 * ROW_PITCH + NODE_HEIGHT,
    });
  });

  it("lists each level's nodes left to right", () => {
    // Two roots; node 3 (under the second root) is on level 1 beside node 1.
    const p = placeNodes({ parents: [-1, 0, -1, 2], children: [[1], [], [3], []] });
    const level = (d: number) => Array.from(p.byDepth.subarray(p.depthStart[d]!, p.depthStart[d + 1]!));
    expect(level(0)).toEqual([0, 2]);
    expect(level(1)).toEqual([1, 3]);
    expect(p.x[2]!).toBeGreaterThan(p.x[0]!);
  });

  it("places no nodes in an empty box", () => {
    const p = placeNodes({ parents: [], children: [] });
    expect(p.x).toHaveLength(0);
    expect(p.maxDepth).toBe(-1);
    expect(p.bounds).toEqual({ minX: 0, maxX: 0, minY: 0, maxY: 0 });
  });
});
