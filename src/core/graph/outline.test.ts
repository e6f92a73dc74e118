import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { a, at, compaction, eid, u } from "../testing/entries";
import { buildGraphModel } from "./model";
import { buildOutline, OUTLINE_FONT_PX } from "./outline";

/** `n` alternating messages in one chain under `parent`. */
function chain(n: number, prefix: string, parent: string | null, t0: number): Entry[] {
  const out: Entry[] = [];
  let p = parent;
  for (let i = 0; i < n; i++) {
    const id = `${prefix}${i}`;
    out.push(at(i % 2 === 0 ? u(id, `question ${id}`) : a(id, `answer ${id}`), p, t0 + i));
    p = id;
  }
  return out;
}

const SIDE_PANEL = { width: 480, height: 640 };

function expectInside(items: readonly { x: number; y: number; width: number; height: number }[], size = SIDE_PANEL) {
  for (const it of items) {
    expect(it.x).toBeGreaterThanOrEqual(0);
    expect(it.y).toBeGreaterThanOrEqual(0);
    expect(it.x + it.width).toBeLessThanOrEqual(size.width);
    expect(it.y + it.height).toBeLessThanOrEqual(size.height);
    expect(it.height).toBeGreaterThanOrEqual(OUTLINE_FONT_PX + 2);
  }
}

describe("buildOutline: the whole graph in view, labelled", () => {
  it("shows a small tree node by node (every node its own item, in its lane and level)", () => {
    // 20 messages with two forks: 26 nodes.
    const entries = [...chain(16, "m", null, 0), ...chain(4, "b", "m5", 100), ...chain(6, "c", "m9", 200)];
    const m = buildGraphModel(entries, { leafId: eid("m15"), foldRuns: false });
    expect(m.nodes).toHaveLength(26);
    const o = buildOutline(m, SIDE_PANEL);
    expect(o.whole).toBe(true);
    expect(o.items.map((i) => i.text)).toContain("question m0");
    expect(o.items.filter((i) => i.current).map((i) => i.key)).toEqual(["m15"]);
    expectInside(o.items);
    // A fork's branch starts below its parent, one column to the right.
    const parent = o.items.find((i) => i.key === "m5")!;
    const branch = o.items.find((i) => i.key === "b0")!;
    expect(branch.y).toBeGreaterThan(parent.y);
    expect(branch.x).toBeGreaterThan(parent.x);
    expect(o.edges.length).toBe(25);
  });

  it("groups a 1,000-message chat into labelled rows that fit, keeping forks and compactions apart", () => {
    const entries = [
      ...chain(1_000, "m", null, 0),
      ...chain(3, "f", "m500", 2_000),
      at(compaction("c", { summary: "Folded.", firstKept: "m700" }), "m720", 3_000),
    ];
    const m = buildGraphModel(entries, { leafId: eid("m999"), foldRuns: false });
    const o = buildOutline(m, SIDE_PANEL);
    expect(o.whole).toBe(false);
    expectInside(o.items);
    expect(o.items.length).toBeLessThanOrEqual(2 * Math.floor((640 - 96) / 24));
    expect(o.items.some((i) => i.kind === "compaction")).toBe(true);
    expect(o.items.find((i) => i.key === "f0")).toBeDefined();
    expect(o.items.filter((i) => i.current)).toHaveLength(1);
    expect(o.items.some((i) => /^\d+ messages/.test(i.text))).toBe(true);
    // Every node is in exactly one item.
    const all = o.items.flatMap((i) => i.nodes).sort((p, q) => p - q);
    expect(all).toEqual(m.nodes.map((n) => n.index));
  });

  it("shares the last column among lanes that do not fit across", () => {
    // Eight branches off one message: eight lanes in a 300 px wide panel.
    const entries = [...chain(4, "m", null, 0)];
    for (let b = 0; b < 8; b++) entries.push(...chain(3, `b${b}-`, "m1", 100 * (b + 1)));
    const m = buildGraphModel(entries, { leafId: eid("m3"), foldRuns: false });
    const size = { width: 300, height: 500 };
    const o = buildOutline(m, size);
    expectInside(o.items, size);
    expect(new Set(o.items.map((i) => i.x)).size).toBeLessThanOrEqual(3);
  });
});
