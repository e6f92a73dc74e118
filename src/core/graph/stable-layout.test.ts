/**
 * Issue 27 item 4: every node keeps its place whichever branch is current. The layout is a pure
 * function of the entries (and the user's labels, filters and folds), never of the leaf.
 */
import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { a, at, compaction, u } from "../testing/entries";
import { buildGraphModel, type GraphModel } from "./model";

/** A chat-shaped tree: mostly one chain, forking now and then, with compactions keeping a few entries. */
function randomSession(n: number, seed: number): Entry[] {
  let s = seed;
  const rand = () => {
    s = (s * 48_271) % 2_147_483_647;
    return s / 2_147_483_647;
  };
  const entries: Entry[] = [at(u("e0", "start"), null, 0)];
  const depthOf = new Map<string, string[]>([["e0", ["e0"]]]);
  for (let i = 1; i < n; i++) {
    const parent = rand() < 0.2 ? entries[Math.floor(rand() * entries.length)]! : entries[entries.length - 1]!;
    const path = depthOf.get(parent.id)!;
    const id = `e${i}`;
    const roll = rand();
    const spec =
      roll < 0.08 && path.length > 3
        ? compaction(id, { summary: `S${i}`, firstKept: path[path.length - 1 - Math.floor(rand() * 3)]! })
        : i % 2 === 0
          ? u(id, `question ${i}`)
          : a(id, `answer ${i}`);
    entries.push(at(spec, parent.id, i));
    depthOf.set(id, [...path, id]);
  }
  return entries;
}

/** Whether compaction `c` kept an entry above it (so it is drawn at that cut, not where it was written). */
function keptAnAncestor(entries: readonly Entry[], c: Entry): boolean {
  if (c.type !== "compaction" || c.firstKeptEntryId === null) return false;
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (let x = c.parentId ? byId.get(c.parentId) : undefined; x; x = x.parentId ? byId.get(x.parentId) : undefined) {
    if (x.id === c.firstKeptEntryId) return true;
  }
  return false;
}

const places = (m: GraphModel) => new Map(m.nodes.map((n) => [n.key, `${n.x},${n.y}`]));

describe("the graph's layout does not depend on where you are", () => {
  it("gives every node the same place for every leaf (random sessions with forks and compactions)", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const entries = randomSession(60, seed * 7_919);
      const reference = places(buildGraphModel(entries, { leafId: entries[entries.length - 1]!.id }));
      for (const leaf of entries) {
        const m = buildGraphModel(entries, { leafId: leaf.id });
        expect(places(m), `seed ${seed}, leaf ${leaf.id}`).toEqual(reference);
        // Where you are is always a node, on the active path.
        expect(m.nodes[m.currentIndex]?.onActivePath, `seed ${seed}, leaf ${leaf.id}`).toBe(true);
      }
    }
  });

  it("'You are here' is the leaf itself unless the leaf is a compaction drawn higher up", () => {
    const entries = randomSession(80, 4_242);
    for (const leaf of entries) {
      const m = buildGraphModel(entries, { leafId: leaf.id, foldRuns: false });
      const here = m.nodes[m.currentIndex]!;
      if (leaf.type !== "compaction" || !keptAnAncestor(entries, leaf)) {
        expect(here.key).toBe(leaf.id);
        continue;
      }
      // The compaction is drawn at its cut, above entries of the path: here is the message it followed.
      expect(here.key).not.toBe(leaf.id);
      expect(here.key).toBe(leaf.parentId);
      expect(here.depth).toBeGreaterThan(m.nodes[m.byKey.get(leaf.id)!]!.depth);
    }
  });
});
