import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { options, planOf } from "../testing/compaction";
import { a, compaction, eid, linkPath, tool, u } from "../testing/entries";
import { prepareCompaction } from "./prepare";
import { DEFAULT_COMPACTION_SETTINGS } from "./settings";

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 100 };
const big = (n: number): string => "x".repeat(n * 4);

describe("prepareCompaction", () => {
  it("says Nothing to compact when everything fits in keepRecentTokens", () => {
    const r = prepareCompaction(linkPath([u("u1", "hi"), a("a1", "hello")]), options());
    expect(r.kind).toBe("nothing_to_compact");
    expect(r.kind === "nothing_to_compact" && r.reason).toMatch(/^Nothing to compact/);
    expect(prepareCompaction([], options()).kind).toBe("nothing_to_compact");
  });

  it("says Already compacted when the leaf is a compaction", () => {
    const p = linkPath([u("u1", big(500)), a("a1", big(500)), compaction("c", { summary: "S", firstKept: "a1" })]);
    expect(prepareCompaction(p, options({ settings }))).toEqual({ kind: "already_compacted" });
  });

  it("plans the fold: history, kept region, tail, kept turns and budgets", () => {
    const p = linkPath([u("u1", "one"), a("a1", `${big(200)} tail-1`), u("u2", "two"), a("a2", big(120))]);
    const plan = planOf(prepareCompaction(p, options({ settings })));
    expect(plan.firstKeptEntryId).toBe(eid("u2"));
    expect(plan.history.map((e) => e.id)).toEqual([eid("u1"), eid("a1")]);
    expect(plan.turnPrefix).toEqual([]);
    expect(plan.tail?.endsWith("tail-1")).toBe(true);
    expect(plan.kept.keptUserTurnIds).toEqual([eid("u1")]);
    expect(plan.outputBudgets).toEqual({ summary: 13_107, splitTurn: 8_192, short: 128 });
    expect(plan.estimatedWindows).toBe(1);
    expect(plan.tokensBefore).toBeNull();
  });

  it("caps output budgets at the summarizer's output limit and a quarter of its window", () => {
    const p = linkPath([u("u1", big(500)), a("a1", big(500)), u("u2", "x")]);
    const plan = planOf(
      prepareCompaction(p, options({ settings, summarizerWindow: 20_000, summarizerMaxOutput: 4_000 })),
    );
    expect(plan.outputBudgets).toEqual({ summary: 4_000, splitTurn: 4_000, short: 128 });
    const small = planOf(prepareCompaction(p, options({ settings, summarizerWindow: 14_000 })));
    expect(small.outputBudgets.summary).toBe(3_500);
  });

  it("compact up to here: keeps from the entry after the chosen one, ignoring keepRecentTokens", () => {
    const p = linkPath([u("u1", "one"), a("a1", "two"), u("u2", "three"), a("a2", "four")]);
    const plan = planOf(prepareCompaction(p, options({ upToEntryId: eid("a1") })));
    expect(plan.firstKeptEntryId).toBe(eid("u2"));
    expect(plan.history.map((e) => e.id)).toEqual([eid("u1"), eid("a1")]);
    const all = planOf(prepareCompaction(p, options({ upToEntryId: eid("a2") })));
    expect(all.firstKeptEntryId).toBeNull();
    expect(prepareCompaction(p, options({ upToEntryId: eid("other-branch") })).kind).toBe("nothing_to_compact");
  });

  it("keeps the previous tail when nothing newly folded has assistant text", () => {
    const p = linkPath([
      u("u0", "x"),
      a("a0", "old words"),
      compaction("c", { summary: "D\n\n<verbatim_tail>\nold words\n</verbatim_tail>", firstKept: null }),
      u("u1", big(300)),
      a("a1", [{ type: "tool_call", id: "k", name: "t", args: {} }]),
      tool("t1", [{ type: "tool_result", callId: "k", text: big(300), isError: false }]),
      u("u2", "next"),
    ]);
    const plan = planOf(prepareCompaction(p, options({ settings })));
    expect(plan.previousDigest).toBe("D");
    expect(plan.tail).toBe("old words");
  });

  it("prepares a 5,000,000-token path from cached counts, reading each count a bounded number of times", () => {
    const n = 50_000;
    const entries: Entry[] = [];
    const counts = new Map<string, number>();
    let parent: Entry["parentId"] = null;
    for (let i = 0; i < n; i++) {
      const id = asEntryId(`e${i}`);
      const e: Entry =
        i % 2 === 0
          ? {
              type: "message",
              id,
              sessionId: asSessionId("s"),
              parentId: parent,
              createdAt: i,
              role: "user",
              content: [{ type: "text", text: `q${i}` }],
              status: "complete",
            }
          : {
              type: "message",
              id,
              sessionId: asSessionId("s"),
              parentId: parent,
              createdAt: i,
              role: "assistant",
              content: [{ type: "text", text: `reply ${i}` }],
              status: "complete",
            };
      counts.set(id, i % 2 === 0 ? 20 : 180);
      entries.push(e);
      parent = id;
    }
    let reads = 0;
    const entryTokens = (e: Entry): number => {
      reads++;
      return counts.get(e.id) ?? 0;
    };
    const r = prepareCompaction(
      entries,
      options({ entryTokens, settings: { ...settings, keptUserTurnsBudget: 20_000 } }),
    );
    expect(r.kind).toBe("plan");
    // Linear in the path: a quadratic walk would read counts ~n²/2 times. Its speed is the bench's.
    expect(reads).toBeLessThanOrEqual(4 * n);
  });
});
