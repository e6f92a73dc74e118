import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { buildTreeIndex, commonAncestor, pathToRoot } from "../session/tree";
import { a, at, compaction, eid, u } from "../testing/entries";
import { collectAbandoned, hasSummarizableContent, planSwitch } from "./collect";

const ids = (entries: readonly Entry[]) => entries.map((e) => e.id as string);

/** A chain u0 a1 u2 a3 … of `n` entries under `parent` (ids prefixed), oldest first. */
function chain(prefix: string, n: number, parent: string | null, t0: number): Entry[] {
  const out: Entry[] = [];
  let p = parent;
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    out.push(at(i % 2 === 0 ? u(id, `${prefix} user ${i}`) : a(id, `${prefix} reply ${i}`), p, t0 + i));
    p = id;
  }
  return out;
}

describe("collectAbandoned on a deep tree", () => {
  // 5,000 shared entries, then two 3,000-deep branches: walks must be iterative.
  const trunk = chain("t", 5_000, null, 0);
  const left = chain("l", 3_000, "t4999", 10_000);
  const right = chain("r", 3_000, "t4999", 20_000);
  const index = buildTreeIndex([...trunk, ...left, ...right]);

  it("finds the fork as the deepest common ancestor", () => {
    expect(commonAncestor(index, eid("l2999"), eid("r1500"))).toBe("t4999");
  });

  it("abandons exactly the old leaf's branch below the fork, root first", () => {
    const branch = collectAbandoned(index, eid("l2999"), eid("r1500"));
    expect(branch.commonAncestorId).toBe("t4999");
    expect(branch.fromId).toBe("l2999");
    expect(branch.entries).toHaveLength(3_000);
    expect(branch.entries[0]?.id).toBe("l0");
    expect(branch.entries.at(-1)?.id).toBe("l2999");
  });

  it("abandons the old path below an ancestor the switch goes back to", () => {
    const branch = collectAbandoned(index, eid("l2999"), eid("t100"));
    expect(branch.commonAncestorId).toBe("t100");
    expect(branch.entries).toHaveLength(4_899 + 3_000);
    expect(branch.entries[0]?.id).toBe("t101");
  });

  it("abandons nothing when the new position is below the old leaf", () => {
    expect(collectAbandoned(index, eid("t10"), eid("l5")).entries).toEqual([]);
  });

  it("abandons the whole old path when there is no new position (a root user target)", () => {
    const branch = collectAbandoned(index, eid("r2999"), null);
    expect(branch.entries).toHaveLength(8_000);
    expect(branch.commonAncestorId).toBeNull();
  });

  it("abandons nothing without an old leaf", () => {
    expect(collectAbandoned(index, null, eid("t1")).entries).toEqual([]);
  });
});

describe("collectAbandoned on bushy trees", () => {
  /** A random tree: each entry's parent is any earlier entry (or none). */
  const bushy = fc.array(fc.nat(), { minLength: 2, maxLength: 120 }).map((picks) => {
    const entries: Entry[] = [];
    picks.forEach((pick, i) => {
      const parent = i === 0 || pick % 17 === 0 ? null : `e${pick % i}`;
      entries.push(at(i % 2 === 0 ? u(`e${i}`, `m${i}`) : a(`e${i}`, `m${i}`), parent, i));
    });
    return entries;
  });

  it("matches a brute-force reference for every pair of entries", () => {
    fc.assert(
      fc.property(bushy, fc.nat(), fc.nat(), (entries, x, y) => {
        const index = buildTreeIndex(entries);
        const oldLeaf = entries[x % entries.length]!.id;
        const position = entries[y % entries.length]!.id;
        const oldPath = pathToRoot(index, oldLeaf);
        const onNew = new Set<EntryId>(pathToRoot(index, position).map((e) => e.id));
        // Reference: the deepest entry of the old path that is also on the new path.
        let ancestor: EntryId | null = null;
        for (const e of oldPath) if (onNew.has(e.id)) ancestor = e.id;
        const expected = ancestor === null ? oldPath : oldPath.slice(oldPath.findIndex((e) => e.id === ancestor) + 1);

        const branch = collectAbandoned(index, oldLeaf, position);
        expect(branch.commonAncestorId).toBe(ancestor);
        expect(ids(branch.entries)).toEqual(ids(expected));
        // Nothing abandoned is on the new position's path; the old leaf closes it.
        for (const e of branch.entries) expect(onNew.has(e.id)).toBe(false);
        if (branch.entries.length > 0) expect(branch.entries.at(-1)?.id).toBe(oldLeaf);
      }),
    );
  });
});

/**
 *        u1
 *        |
 *        a1
 *      /    \
 *    u2      u2b
 *    |        |
 *    a2      a2b
 *    |
 *    u3
 *    |
 *    a3   <- leaf
 */
function forked() {
  return buildTreeIndex([
    at(u("u1", "hello"), null, 1),
    at(a("a1", "hi"), "u1", 2),
    at(u("u2", "first try"), "a1", 3),
    at(a("a2", "answer one"), "u2", 4),
    at(u("u3", "more"), "a2", 5),
    at(a("a3", "more answer"), "u3", 6),
    at(u("u2b", "second try"), "a1", 7),
    at(a("a2b", "answer two"), "u2b", 8),
  ]);
}

describe("planSwitch: the attachment point", () => {
  it("on a user message: the position is its parent and its text goes back into the composer", () => {
    const plan = planSwitch(forked(), eid("u2b"), eid("a3"));
    expect(plan).toMatchObject({ kind: "switch", position: "a1", composerText: "second try" });
    if (plan.kind !== "switch") throw new Error("expected a switch");
    expect(ids(plan.abandoned.entries)).toEqual(["u2", "a2", "u3", "a3"]);
    expect(plan.abandoned.fromId).toBe("a3");
    expect(plan.summarizable).toBe(true);
  });

  it("on an assistant message: the position is the message itself, and nothing goes to the composer", () => {
    const plan = planSwitch(forked(), eid("a2b"), eid("a3"));
    expect(plan).toMatchObject({ kind: "switch", position: "a2b" });
    if (plan.kind !== "switch") throw new Error("expected a switch");
    expect(plan.composerText).toBeUndefined();
    expect(ids(plan.abandoned.entries)).toEqual(["u2", "a2", "u3", "a3"]);
  });

  it("on an ancestor on the active path: only what is below it is left behind", () => {
    const plan = planSwitch(forked(), eid("a2"), eid("a3"));
    if (plan.kind !== "switch") throw new Error("expected a switch");
    expect(plan.position).toBe("a2");
    expect(ids(plan.abandoned.entries)).toEqual(["u3", "a3"]);
  });

  it("on a root user message: no position (before the first message), the whole path is left behind", () => {
    const plan = planSwitch(forked(), eid("u1"), eid("a3"));
    if (plan.kind !== "switch") throw new Error("expected a switch");
    expect(plan.position).toBeNull();
    expect(plan.composerText).toBe("hello");
    expect(ids(plan.abandoned.entries)).toEqual(["u1", "a1", "u2", "a2", "u3", "a3"]);
  });

  it("on the leaf itself: nothing to do", () => {
    expect(planSwitch(forked(), eid("a3"), eid("a3"))).toEqual({ kind: "nothing_to_do" });
  });

  it("on an unknown id: not found", () => {
    expect(planSwitch(forked(), eid("nope"), eid("a3"))).toEqual({ kind: "not_found" });
  });

  it("from a leaf above the target: nothing is left behind, nothing to summarize", () => {
    const plan = planSwitch(forked(), eid("a2b"), eid("a1"));
    if (plan.kind !== "switch") throw new Error("expected a switch");
    expect(plan.abandoned.entries).toEqual([]);
    expect(plan.summarizable).toBe(false);
  });
});

describe("hasSummarizableContent", () => {
  it("is false for messages the model never saw, true for summaries and compactions", () => {
    const failed = at(a("x", [], { status: "error", error: { kind: "network", message: "down" } }), null, 1);
    expect(hasSummarizableContent([failed])).toBe(false);
    expect(hasSummarizableContent([at(compaction("c", { summary: "S", firstKept: null }), null, 1)])).toBe(true);
    expect(hasSummarizableContent([])).toBe(false);
  });
});
