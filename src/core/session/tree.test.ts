import { describe, expect, it } from "vitest";
import { a, at, eid, linkPath, u } from "../testing/entries";
import type { Entry } from "./entries";
import {
  abandonedPath,
  buildTreeIndex,
  childrenOf,
  commonAncestor,
  deepestLeafFrom,
  pathToRoot,
  siblingsOf,
  switchTarget,
  walkToRoot,
} from "./tree";

const ids = (entries: readonly Entry[]) => entries.map((e) => e.id as string);

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
 */
function forked() {
  const entries = [
    at(u("u1", "hello"), null, 1),
    at(a("a1", "hi"), "u1", 2),
    at(u("u2", "first try"), "a1", 3),
    at(a("a2", "answer one"), "u2", 4),
    at(u("u3", "more"), "a2", 5),
    at(u("u2b", "second try"), "a1", 6),
    at(a("a2b", "answer two"), "u2b", 7),
  ];
  return buildTreeIndex(entries);
}

describe("buildTreeIndex", () => {
  it("derives children oldest first, by createdAt then id", () => {
    const entries = [
      at(u("root", "r"), null, 1),
      at(a("c", "x"), "root", 5),
      at(a("b", "x"), "root", 5),
      at(a("a", "x"), "root", 9),
      at(a("z", "x"), "root", 2),
    ];
    const index = buildTreeIndex(entries);
    expect(ids(childrenOf(index, eid("root")))).toEqual(["z", "b", "c", "a"]);
    expect(childrenOf(index, eid("a"))).toEqual([]);
    expect(ids(index.roots)).toEqual(["root"]);
  });

  it("lists entries whose parent is missing among the roots", () => {
    const index = buildTreeIndex([at(u("r", "r"), null, 1), at(u("orphan", "o"), "gone", 2)]);
    expect(ids(index.roots)).toEqual(["r", "orphan"]);
  });
});

describe("pathToRoot", () => {
  it("returns the path root first", () => {
    expect(ids(pathToRoot(forked(), eid("u3")))).toEqual(["u1", "a1", "u2", "a2", "u3"]);
  });

  it("walks a 10,000-entry path without recursion", () => {
    const specs = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? u(`e${i}`, "q") : a(`e${i}`, "r")));
    const index = buildTreeIndex(linkPath(specs));
    const path = pathToRoot(index, eid("e9999"));
    expect(path).toHaveLength(10_000);
    expect(path[0]?.id).toBe("e0");
    expect(path[9_999]?.id).toBe("e9999");
    expect(deepestLeafFrom(index, eid("e0"))).toBe("e9999");
    expect(commonAncestor(index, eid("e9999"), eid("e5000"))).toBe("e5000");
    expect(abandonedPath(index, eid("e9999"), eid("e4999"))).toHaveLength(5_000);
  });

  it("gives an empty path for an unknown leaf", () => {
    expect(walkToRoot(forked(), eid("nope"))).toEqual({ path: [], problem: { kind: "missing_leaf", at: "nope" } });
  });

  it("stops at a dangling parent and says where", () => {
    const index = buildTreeIndex([at(u("x", "x"), "missing", 1), at(a("y", "y"), "x", 2)]);
    const walk = walkToRoot(index, eid("y"));
    expect(ids(walk.path)).toEqual(["x", "y"]);
    expect(walk.problem).toEqual({ kind: "dangling_parent", at: "x", parentId: "missing" });
  });

  it("stops at a cycle instead of looping forever", () => {
    const index = buildTreeIndex([at(u("p", "p"), "q", 1), at(a("q", "q"), "p", 2), at(u("leaf", "l"), "p", 3)]);
    const walk = walkToRoot(index, eid("leaf"));
    expect(walk.problem).toEqual({ kind: "cycle", at: "p" });
    expect(ids(walk.path)).toEqual(["q", "p", "leaf"]);
    expect(index.roots).toEqual([]);
    expect(deepestLeafFrom(index, eid("p"))).toBe("leaf");
    expect(deepestLeafFrom(index, eid("q"))).toBe("leaf");
    expect(commonAncestor(index, eid("leaf"), eid("q"))).toBe("q");
  });
});

describe("siblingsOf", () => {
  it("returns the versions of a message with its 1-based position", () => {
    const index = forked();
    const { siblings, position } = siblingsOf(index, eid("u2b"));
    expect(ids(siblings)).toEqual(["u2", "u2b"]);
    expect(position).toBe(2);
    expect(siblingsOf(index, eid("u2")).position).toBe(1);
  });

  it("uses the roots as siblings of a root, and nothing for an unknown id", () => {
    const index = buildTreeIndex([at(u("r1", "a"), null, 1), at(u("r2", "b"), null, 2)]);
    expect(siblingsOf(index, eid("r2"))).toEqual({ siblings: index.roots, position: 2 });
    expect(siblingsOf(index, eid("zzz"))).toEqual({ siblings: [], position: 0 });
  });

  it("handles a bushy tree: 2,000 children of one parent, same timestamp, ordered by id", () => {
    const entries: Entry[] = [at(u("root", "r"), null, 0)];
    const n = 2_000;
    for (let i = n - 1; i >= 0; i--) entries.push(at(a(`c${String(i).padStart(5, "0")}`, "x"), "root", 1));
    for (let i = 0; i < n; i += 100) entries.push(at(u(`g${i}`, "y"), `c${String(i).padStart(5, "0")}`, 2));
    const index = buildTreeIndex(entries);
    const kids = childrenOf(index, eid("root"));
    expect(kids).toHaveLength(n);
    expect(kids[0]?.id).toBe("c00000");
    expect(siblingsOf(index, eid("c01234")).position).toBe(1235);
    expect(deepestLeafFrom(index, eid("root"))).toBe("c01999");
    expect(commonAncestor(index, eid("g100"), eid("g1900"))).toBe("root");
  });
});

describe("commonAncestor", () => {
  it("finds the fork point of two branches", () => {
    expect(commonAncestor(forked(), eid("u3"), eid("a2b"))).toBe("a1");
  });

  it("is the ancestor itself when one contains the other", () => {
    expect(commonAncestor(forked(), eid("u3"), eid("u2"))).toBe("u2");
    expect(commonAncestor(forked(), eid("a1"), eid("a1"))).toBe("a1");
  });

  it("is null for separate roots", () => {
    const index = buildTreeIndex([at(u("r1", "a"), null, 1), at(u("r2", "b"), null, 2)]);
    expect(commonAncestor(index, eid("r1"), eid("r2"))).toBeNull();
  });
});

describe("deepestLeafFrom", () => {
  it("follows the newest child down", () => {
    expect(deepestLeafFrom(forked(), eid("u1"))).toBe("a2b");
    expect(deepestLeafFrom(forked(), eid("u2"))).toBe("u3");
    expect(deepestLeafFrom(forked(), eid("u3"))).toBe("u3");
  });
});

describe("abandonedPath", () => {
  it("is the old path below the fork when switching to another branch", () => {
    expect(ids(abandonedPath(forked(), eid("u3"), eid("a2b")))).toEqual(["u2", "a2", "u3"]);
  });

  it("is the part below the new position when moving up the same branch", () => {
    expect(ids(abandonedPath(forked(), eid("u3"), eid("a1")))).toEqual(["u2", "a2", "u3"]);
    expect(ids(abandonedPath(forked(), eid("u3"), eid("a2")))).toEqual(["u3"]);
  });

  it("is the whole old path when the new position is before the first message", () => {
    expect(ids(abandonedPath(forked(), eid("a2b"), null))).toEqual(["u1", "a1", "u2b", "a2b"]);
  });

  it("is empty with no old leaf or when nothing moves", () => {
    expect(abandonedPath(forked(), null, eid("a1"))).toEqual([]);
    expect(abandonedPath(forked(), eid("u3"), eid("u3"))).toEqual([]);
  });
});

describe("switchTarget", () => {
  it("moves to the parent of a user message and returns its text for the composer", () => {
    expect(switchTarget(forked(), eid("u2b"), eid("u3"))).toEqual({ position: "a1", composerText: "second try" });
  });

  it("moves to before the first message for a root user message", () => {
    expect(switchTarget(forked(), eid("u1"), eid("u3"))).toEqual({ position: null, composerText: "hello" });
  });

  it("moves to any other entry itself", () => {
    expect(switchTarget(forked(), eid("a2b"), eid("u3"))).toEqual({ position: "a2b" });
  });

  it("changes nothing when the target is the leaf, and is null for an unknown id", () => {
    expect(switchTarget(forked(), eid("u3"), eid("u3"))).toEqual({ position: "u3" });
    expect(switchTarget(forked(), eid("nope"), eid("u3"))).toBeNull();
  });
});
