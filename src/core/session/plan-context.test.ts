import { describe, expect, it } from "vitest";
import { a, compaction, eid, linkPath, u } from "../testing/entries";
import { type ContextPlan, joinContinuation, planContext } from "./plan-context";

const summary = (p: ContextPlan) => ({
  compaction: p.compaction?.id ?? null,
  keptStart: p.keptStart,
  folded: [p.foldedStart, p.foldedEnd],
  keptUserTurns: p.keptUserTurns.map((e) => e.id),
  joins: [...p.joins],
});

describe("planContext", () => {
  it("without a compaction keeps everything", () => {
    const p = planContext(linkPath([u("u1", "hi"), a("a1", "hello")]));
    expect(summary(p)).toEqual({ compaction: null, keptStart: 0, folded: [0, 0], keptUserTurns: [], joins: [] });
  });

  it("keeps from the first kept entry; kept user turns are the named user messages before it", () => {
    const path = linkPath([
      u("u1", "one"),
      a("a1", "1"),
      u("u2", "two"),
      a("a2", "2"),
      compaction("c", { summary: "S", firstKept: "u2", kept: ["u1", "a1", "u2", "gone"] }),
    ]);
    expect(summary(planContext(path))).toMatchObject({
      compaction: "c",
      keptStart: 2,
      folded: [0, 2],
      keptUserTurns: [eid("u1")],
    });
  });

  it("only the latest compaction counts; a first kept entry that is null, missing or after it keeps what follows", () => {
    for (const firstKept of [null, "gone", "u3"]) {
      const path = linkPath([
        u("u1", "one"),
        compaction("c1", { summary: "S1", firstKept: "u1" }),
        u("u2", "two"),
        compaction("c2", { summary: "S2", firstKept }),
        u("u3", "three"),
      ]);
      // c1 kept u1, so c2's folded span starts there (c1 itself included).
      expect(summary(planContext(path))).toMatchObject({ compaction: "c2", keptStart: 4, folded: [0, 3] });
    }
  });

  it("the previous compaction itself starts the folded span when it kept nothing", () => {
    const path = linkPath([
      u("u1", "one"),
      compaction("c1", { summary: "S1", firstKept: null }),
      u("u2", "two"),
      a("a2", "2"),
      compaction("c2", { summary: "S2", firstKept: "a2" }),
    ]);
    expect(summary(planContext(path))).toMatchObject({ keptStart: 3, folded: [1, 3] });
  });

  it("in a segment, a first kept entry not on it lies above: the whole segment is kept", () => {
    const path = linkPath([u("b1", "x"), compaction("c", { summary: "S", firstKept: "above" }), u("b2", "y")]);
    expect(planContext(path, { segment: true }).keptStart).toBe(0);
    expect(planContext(path).keptStart).toBe(2);
  });

  it("joins a continuation to the run of the reply it names, passing over failed empty replies and compactions", () => {
    const path = linkPath([
      u("u1", "q"),
      a("a1", "part one", { stopReason: "length" }),
      a("f", [], { status: "error", continues: eid("a1") }),
      compaction("c0", { summary: "S", firstKept: "u1" }),
      a("a2", " part two", { continues: eid("a1") }),
      a("a3", " part three", { continues: eid("a2") }),
      a("x", "names an older reply", { continues: eid("a1") }),
    ]);
    expect(summary(planContext(path)).joins).toEqual([
      [eid("f"), eid("a1")],
      [eid("a2"), eid("a1")],
      [eid("a3"), eid("a1")],
    ]);
  });

  it("never joins across the start of the kept region", () => {
    const path = linkPath([
      u("u1", "q"),
      a("a1", "part one", { stopReason: "length" }),
      a("a2", " part two", { continues: eid("a1") }),
      compaction("c", { summary: "S", firstKept: "a2" }),
    ]);
    expect(planContext(path).joins.size).toBe(0);
  });
});

describe("joinContinuation", () => {
  it("runs text on with no delimiter, keeps other blocks apart", () => {
    const t = (text: string) => ({ type: "text" as const, text });
    expect(joinContinuation([t("Hel")], [t("lo"), t("!")])).toEqual([t("Hello"), t("!")]);
    type B = { type: "text"; text: string } | { type: "image" };
    const img: B = { type: "image" };
    expect(joinContinuation<B>([img], [t("x")])).toEqual([img, t("x")]);
    expect(joinContinuation([t("a")], [])).toEqual([t("a")]);
  });
});
