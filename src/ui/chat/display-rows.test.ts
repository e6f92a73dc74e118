import { describe, expect, it } from "vitest";
import { buildContext } from "../../core/session/build-context";
import type { Entry } from "../../core/session/entries";
import { STEP_ITEMS } from "../../core/steps";
import { a, compaction, type EntrySpec, linkPath, tool, u } from "../../core/testing/entries";
import { type DisplayRow, displayRows, displayRowsSteps, lastEntryIdOf } from "./display-rows";

/** A compact picture of the rows: "card:c1*" (* = latest), "u1" (sent), "u1~" (folded), "u1!" (kept), "a1+a2" (joined). */
function shape(rows: readonly DisplayRow[]): string[] {
  return rows.map((r) => {
    if (r.kind === "compaction") return `card:${r.entry.id}${r.latest ? "*" : ""}`;
    const ids = [r.entry.id, ...r.continuations.map((c) => c.id)].join("+");
    const mark = r.visibility === "folded" ? "~" : r.visibility === "kept" ? "!" : "";
    return `${ids}${mark}${r.continuable ? " [continue]" : ""}`;
  });
}

const rows = (specs: EntrySpec[]) => displayRows(linkPath(specs));

describe("displayRows", () => {
  it("without a compaction: one row per entry, all sent", () => {
    expect(shape(rows([u("u1", "hi"), a("a1", "hello"), u("u2", "more"), a("a2", "sure")]))).toEqual([
      "u1",
      "a1",
      "u2",
      "a2",
    ]);
  });

  it("an empty path has no rows", () => {
    expect(displayRows([])).toEqual([]);
  });

  it("draws the card at the cut (above the first kept entry), not where the compaction sits", () => {
    const path = [
      u("u1", "one"),
      a("a1", "one back"),
      u("u2", "two"),
      a("a2", "two back"),
      compaction("c1", { summary: "S", firstKept: "u2" }),
    ];
    expect(shape(rows(path))).toEqual(["u1~", "a1~", "card:c1*", "u2", "a2"]);
  });

  it("the folded region is exactly what buildContext leaves out", () => {
    const specs = [
      u("u1", "FACT-ONE"),
      a("a1", "ANSWER-ONE"),
      u("u2", "FACT-TWO"),
      a("a2", "ANSWER-TWO"),
      u("u3", "FACT-THREE"),
      a("a3", "ANSWER-THREE"),
      compaction("c1", { summary: "SUMMARY", firstKept: "u3", kept: ["u1"] }),
      u("u4", "FACT-FOUR"),
    ];
    const path = linkPath(specs);
    const sent = JSON.stringify(buildContext(path, { systemPrompt: "", targetApi: "openai-chat" }).messages);
    const result = displayRows(path);
    for (const row of result) {
      if (row.kind !== "entry" || row.entry.type !== "message") continue;
      const text = row.entry.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      if (row.visibility === "folded") expect(sent).not.toContain(text);
      else expect(sent).toContain(text);
    }
    expect(shape(result)).toEqual(["u1!", "a1~", "u2~", "a2~", "card:c1*", "u3", "a3", "u4"]);
  });

  it("a user turn kept verbatim is marked kept, an assistant id in the kept list is still folded", () => {
    const path = [
      u("u1", "keep me"),
      a("a1", "x"),
      u("u2", "y"),
      compaction("c1", { summary: "S", firstKept: "u2", kept: ["u1", "a1"] }),
    ];
    expect(shape(rows(path))).toEqual(["u1!", "a1~", "card:c1*", "u2"]);
  });

  it("firstKeptEntryId null: the card stays at the compaction's own position and everything above is folded", () => {
    const path = [
      u("u1", "one"),
      a("a1", "back"),
      compaction("c1", { summary: "S", firstKept: null, kept: ["u1"] }),
      u("u2", "after"),
    ];
    expect(shape(rows(path))).toEqual(["u1!", "a1~", "card:c1*", "u2"]);
  });

  it("firstKeptEntryId not on the path (or after the compaction): treated like null", () => {
    const path = [u("u1", "one"), a("a1", "back"), compaction("c1", { summary: "S", firstKept: "gone" })];
    expect(shape(rows(path))).toEqual(["u1~", "a1~", "card:c1*"]);
  });

  it("only the latest compaction decides: an earlier card is superseded and its kept turns follow the latest", () => {
    const path = [
      u("u1", "one"),
      a("a1", "one back"),
      u("u2", "two"),
      a("a2", "two back"),
      compaction("c1", { summary: "S1", firstKept: "u2", kept: ["u1"] }),
      u("u3", "three"),
      a("a3", "three back"),
      compaction("c2", { summary: "S2", firstKept: "u3", kept: ["u1", "u2"] }),
      u("u4", "four"),
    ];
    expect(shape(rows(path))).toEqual(["u1!", "a1~", "card:c1", "u2!", "a2~", "card:c2*", "u3", "a3", "u4"]);
  });

  it("two compactions with the same cut: both cards, in path order, above the same entry", () => {
    const path = [
      u("u1", "one"),
      a("a1", "back"),
      u("u2", "two"),
      compaction("c1", { summary: "S1", firstKept: "u2" }),
      compaction("c2", { summary: "S2", firstKept: "u2" }),
    ];
    expect(shape(rows(path))).toEqual(["u1~", "a1~", "card:c1", "card:c2*", "u2"]);
  });

  it("the compaction entry never gets a row of its own when its card moved", () => {
    const path = linkPath([
      u("u1", "x"),
      a("a1", "y"),
      u("u2", "z"),
      compaction("c1", { summary: "S", firstKept: "u2" }),
    ]);
    const result = displayRows(path);
    expect(result.filter((r) => r.entry.id === "c1")).toHaveLength(1);
    expect(result.map((r) => r.key)).toEqual(["u1", "a1", "card-c1", "u2"]);
  });

  it("joins a Continue reply to the partial it extends and offers Continue only at the end", () => {
    const path = [
      u("u1", "write a lot"),
      a("a1", "part one", { stopReason: "length" }),
      a("a2", " part two", { continues: "a1" as Entry["id"], stopReason: "length" }),
    ];
    const result = rows(path);
    expect(shape(result)).toEqual(["u1", "a1+a2 [continue]"]);
    const joined = result[1];
    expect(joined && lastEntryIdOf(joined)).toBe("a2");
  });

  it("a cut-off reply is continuable only while it is the last content on the path (compactions may follow)", () => {
    expect(shape(rows([u("u1", "q"), a("a1", "cut", { stopReason: "length" })]))).toEqual(["u1", "a1 [continue]"]);
    expect(
      shape(
        rows([
          u("u1", "q"),
          a("a1", "cut", { stopReason: "length" }),
          compaction("c1", { summary: "S", firstKept: "a1" }),
        ]),
      ),
    ).toEqual(["u1~", "card:c1*", "a1 [continue]"]);
    expect(shape(rows([u("u1", "q"), a("a1", "cut", { stopReason: "length" }), u("u2", "next")]))).toEqual([
      "u1",
      "a1",
      "u2",
    ]);
    // Stopped or failed replies are not continued: Regenerate/Retry is for those.
    expect(shape(rows([u("u1", "q"), a("a1", "cut", { stopReason: "length", status: "stopped" })]))).toEqual([
      "u1",
      "a1",
    ]);
  });

  it("a continuation past a compaction joins its partial when no card is drawn between them", () => {
    const path = [
      u("u1", "q1"),
      a("a1", "long answer"),
      u("u2", "q2"),
      a("a2", "cut", { stopReason: "length" }),
      compaction("c1", { summary: "S", firstKept: "u2" }),
      a("a3", " rest", { continues: "a2" as Entry["id"] }),
    ];
    expect(shape(rows(path))).toEqual(["u1~", "a1~", "card:c1*", "u2", "a2+a3"]);
  });

  it("a continuation is not joined across a card (the cut fell between them, as buildContext sends it)", () => {
    const path = [
      u("u1", "q1"),
      a("a1", "cut", { stopReason: "length" }),
      compaction("c1", { summary: "S", firstKept: null }),
      a("a2", " rest", { continues: "a1" as Entry["id"] }),
    ];
    expect(shape(rows(path))).toEqual(["u1~", "a1~", "card:c1*", "a2"]);
  });

  it("a failed, empty continuation stays in the row; a retry that continues the partial joins it too", () => {
    const path = [
      u("u1", "q"),
      a("a1", "cut", { stopReason: "length" }),
      a("a2", [], { continues: "a1" as Entry["id"], status: "error", stopReason: "error" }),
      a("a3", " rest", { continues: "a1" as Entry["id"] }),
    ];
    expect(shape(rows(path))).toEqual(["u1", "a1+a2+a3"]);
    const sent = buildContext(linkPath(path), { systemPrompt: "", targetApi: "openai-chat" }).messages;
    expect(sent).toHaveLength(2); // the model, too, sees one reply
  });

  it("a continuation of some other reply is its own row", () => {
    const path = [u("u1", "q"), a("a1", "x"), u("u2", "q2"), a("a2", "y", { continues: "a1" as Entry["id"] })];
    expect(shape(rows(path))).toEqual(["u1", "a1", "u2", "a2"]);
  });
});

describe("displayRows: tool steps (issue 28)", () => {
  const call = (id: string, name: string) => ({ type: "tool_call" as const, id, name, args: {} });
  const result = (callId: string, t: string) => ({ type: "tool_result" as const, callId, text: t, isError: false });

  it("shows each result with its call: the tool entries get no row of their own", () => {
    const r = rows([
      u("u1", "go"),
      a("a1", [call("c1", "s__echo"), call("c2", "s__sum")]),
      tool("t1", [result("c1", "Echo: hi")]),
      tool("t2", [result("c2", "5")]),
      a("a2", "done"),
    ]);
    expect(shape(r)).toEqual(["u1", "a1", "a2"]);
    const step = r[1];
    expect(step?.kind === "entry" ? [...(step.results?.keys() ?? [])] : []).toEqual(["c1", "c2"]);
    expect(step?.kind === "entry" ? step.results?.get("c1")?.block.text : undefined).toBe("Echo: hi");
  });

  it("a result whose call is not on the path keeps its row", () => {
    expect(shape(rows([u("u1", "go"), tool("t1", [result("cx", "stray")])]))).toEqual(["u1", "t1"]);
  });
});

describe("displayRowsSteps", () => {
  it("pauses after each pass and every few entries of a long path, and makes the same rows", () => {
    const specs = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? u(`u${i}`, "q") : a(`a${i}`, "r")));
    const path = linkPath(specs);
    const steps = displayRowsSteps(path);
    let pauses = 0;
    let next = steps.next();
    while (!next.done) {
      pauses++;
      next = steps.next();
    }
    expect(pauses).toBeGreaterThanOrEqual(4 + Math.floor(500 / STEP_ITEMS));
    expect(next.value).toEqual(displayRows(path));
    expect(next.value).toHaveLength(500);
  });
});
