/**
 * Building the index in parts (treeIndexBuilder, buildTreeIndex) equals the index by its plain
 * definition, and extendTreeIndex equals building it afresh from all the entries: random trees
 * (parents before or after their children in the input, dangling parents, repeated ids, equal
 * timestamps), split at random points.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { at, u } from "../testing/entries";
import type { Entry } from "./entries";
import type { EntryId } from "./ids";
import { buildTreeIndex, compareEntries, extendTreeIndex, type TreeIndex, treeIndexBuilder } from "./tree";

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

/** The index by its definition, written plainly: the later of two entries with one id wins. */
function plainIndex(all: readonly Entry[]): TreeIndex {
  const byId = new Map<EntryId, Entry>();
  for (const e of all) byId.set(e.id, e);
  const children = new Map<EntryId, Entry[]>();
  const roots: Entry[] = [];
  for (const e of byId.values()) {
    if (e.parentId === null || !byId.has(e.parentId)) roots.push(e);
    else children.set(e.parentId, [...(children.get(e.parentId) ?? []), e]);
  }
  for (const list of children.values()) list.sort(compareEntries);
  return { byId, childrenOf: children, roots: roots.sort(compareEntries) };
}

describe("treeIndexBuilder", () => {
  it("gives the plain index of everything added, however the entries come in parts", () => {
    fc.assert(
      fc.property(entries, fc.array(fc.nat(), { maxLength: 5 }), (all, cuts) => {
        const at = [...new Set(cuts.map((c) => (all.length === 0 ? 0 : c % (all.length + 1))))].sort((a, b) => a - b);
        const builder = treeIndexBuilder();
        let from = 0;
        for (const to of [...at, all.length]) {
          builder.add(all.slice(from, to));
          from = Math.max(from, to);
        }
        expect(shape(builder.index())).toEqual(shape(plainIndex(all)));
        expect(shape(buildTreeIndex(all))).toEqual(shape(plainIndex(all)));
      }),
      { numRuns: 500 },
    );
  });
});

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
