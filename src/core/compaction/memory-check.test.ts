import { describe, expect, it } from "vitest";
import type { CompactionEntry, Entry } from "../session/entries";
import { pinData } from "../session/pins";
import { a, compaction, eid, linkPath, tool, u } from "../testing/entries";
import { draftPrompt, gradeBySpan, parseGrade, parseProbes, probeSources, protectedText } from "./memory-check";

function chat(): { path: Entry[]; card: CompactionEntry } {
  const path = linkPath([
    u("u1", "My budget is 4,200 euros and the deadline is March 3."),
    a("a1", "We chose Postgres 16 with the pgvector extension."),
    a("a2", [{ type: "tool_call", id: "c1", name: "read", args: {} }]),
    tool("t1", [{ type: "tool_result", callId: "c1", text: "replicas: 7\nregion: eu-west-2", isError: false }]),
    a("a3", "Pinned: the API key rotates every 30 days."),
    { type: "custom", id: eid("p1"), ...pinData(eid("a3"), true) },
    a("a4", "Last words before the cut: deploy on Tuesday."),
    u("u2", "next"),
    compaction("c", {
      summary: "S\n\n<verbatim_tail>\nLast words before the cut: deploy on Tuesday.\n</verbatim_tail>",
      firstKept: "u2",
      kept: ["u1"],
    }),
  ]);
  return { path, card: path.at(-1) as CompactionEntry };
}

describe("memory check", () => {
  it("probe sources are folded assistant text and tool output, never user messages or pins", () => {
    const { path, card } = chat();
    const ids = probeSources(path, card).map((s) => s.entryId);
    expect(ids).toEqual([eid("a1"), eid("t1"), eid("a4")]);
    expect(draftPrompt(probeSources(path, card))).toContain('<passage number="2">');
  });

  it("keeps only probes whose span is exactly in the named passage and not in floor-protected text", () => {
    const { path, card } = chat();
    const sources = probeSources(path, card);
    const raw = `Here you go:\n\`\`\`json\n${JSON.stringify([
      { question: "Which database?", span: "Postgres 16", source: 1 },
      { question: "How many replicas?", span: "replicas: 7", source: 2 },
      { question: "Budget?", span: "4,200 euros", source: 1 }, // a user fact: not in passage 1
      { question: "When to deploy?", span: "deploy on Tuesday", source: 3 }, // the verbatim tail
      { question: "Key rotation?", span: "every 30 days", source: 1 }, // pinned text
      { question: "Invented", span: "MySQL", source: 1 },
      { question: "Again", span: "postgres 16", source: 1 }, // not exact
      { question: "Dup", span: "Postgres 16", source: 1 },
    ])}\n\`\`\``;
    const probes = parseProbes(raw, sources, protectedText(path, card));
    expect(probes.map((p) => [p.span, p.source.entryId])).toEqual([
      ["Postgres 16", eid("a1")],
      ["replicas: 7", eid("t1")],
    ]);
    expect(parseProbes("not json", sources, [])).toEqual([]);
  });

  it("grades by span first: contained (case, spacing, punctuation aside) is recalled, else the grader decides", () => {
    expect(gradeBySpan("You chose postgres  16, with pgvector.", "Postgres 16")).toBe("recalled");
    expect(gradeBySpan("The replicas: 7.", "replicas: 7")).toBe("recalled");
    expect(gradeBySpan("Seven replicas.", "replicas: 7")).toBe("ask_grader");
    expect(gradeBySpan("Postgres 160", "Postgres 16")).toBe("ask_grader");
    expect(parseGrade("YES")).toBe(true);
    expect(parseGrade("yes, it does")).toBe(true);
    expect(parseGrade("NO")).toBe(false);
    expect(parseGrade("Not sure")).toBe(false);
  });
});
