/**
 * extendTreeIndex equals building the index afresh from all the entries: random trees (parents
 * before or after their children in the input, dangling parents, repeated ids, equal timestamps),
 * split at a random point.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { at, u } from "../testing/entries";
import type { Entry } from "./entries";
import { appendedTo, buildTreeIndex, extendTreeIndex, type TreeIndex } from "./tree";

/** An index as plain data: every map as sorted pairs, every list in its order. */
function shape(index: TreeIndex) {
  const ids = (list: readonly Entry[]) => list.map((e) => `${e.id}@${e.createdAt}`);
  return {
    byId: [...index.byId].map(([id, e]) => [id, `${e.id}@${e.createdAt}`]).sort(),
    childrenOf: [...index.childrenOf].map(([id, list]) => [id, ids(list)] as const).sort(),
    roots: ids(index.roots),
  };
}

const entries = fc
  .array(
    fc.record({
      id: fc.integer({ min: 0, max: 40 }),
      // -1: a root; above 40: a parent that never exists (dangling).
      parent: fc.integer({ min: -1, max: 45 }),
      createdAt: fc.integer({ min: 0, max: 10 }),
    }),
    { maxLength: 60 },
  )
  .map((specs) =>
    specs.map((s) => at(u(`e${s.id}`, `text ${s.id}`), s.parent < 0 ? null : `e${s.parent}`, s.createdAt)),
  );

describe("extendTreeIndex", () => {
  it("gives the index buildTreeIndex gives for all the entries", () => {
    fc.assert(
      fc.property(entries, fc.nat(), (all, cut) => {
        const split = all.length === 0 ? 0 : cut % (all.length + 1);
        const base = all.slice(0, split);
        const added = all.slice(split);
        expect(shape(extendTreeIndex(buildTreeIndex(base), added))).toEqual(shape(buildTreeIndex(all)));
      }),
      { numRuns: 500 },
    );
  });

  it("leaves the index it extends unchanged, and shares what did not change", () => {
    const base = buildTreeIndex([at(u("r", "root"), null, 1), at(u("x", "x"), "r", 2), at(u("y", "y"), "x", 3)]);
    const before = shape(base);
    const next = extendTreeIndex(base, [at(u("z", "z"), "r", 4)]);
    expect(shape(base)).toEqual(before);
    expect(next.childrenOf.get(at(u("r", ""), null, 0).id)?.map((e) => e.id)).toEqual(["x", "z"]);
    expect(next.childrenOf.get(at(u("x", ""), null, 0).id)).toBe(base.childrenOf.get(at(u("x", ""), null, 0).id));
    expect(next.roots).toBe(base.roots);
    expect(extendTreeIndex(base, [])).toBe(base);
  });
});

describe("appendedTo", () => {
  const r = at(u("r", "root"), null, 1);
  const x = at(u("x", "x"), "r", 2);
  const y = at(u("y", "y"), "x", 3);
  const z = at(u("z", "z"), "y", 4);

  it("names the appended entries when the entries are the last ones plus new ones", () => {
    expect(appendedTo([r, x, y], [r, x, y, z])).toEqual([z]);
    expect(appendedTo([r, x, y], [r, x, y])).toEqual([]);
  });

  it("is null for a fresh read (new objects), an entry among the old ones, fewer entries, or nothing before", () => {
    expect(appendedTo([r, x, z], [r, x, y, z])).toBeNull();
    expect(
      appendedTo(
        [r, x, z],
        [r, x, z].map((e) => ({ ...e })),
      ),
    ).toBeNull();
    expect(appendedTo([r, x, y], [r, x])).toBeNull();
    expect(appendedTo([], [r, x])).toBeNull();
  });
});
