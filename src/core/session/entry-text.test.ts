import { describe, expect, it } from "vitest";
import { finishBranchSummary } from "../branch/finish";
import { buildGraphModel, searchGraph } from "../graph/model";
import { a, branchSummary, compaction, eid, handoff, linkPath, thinking, tool, u } from "../testing/entries";
import type { Block, Entry } from "./entries";
import {
  argsJson,
  blockText,
  branchSummaryBody,
  entryContextText,
  entrySearchText,
  entryText,
  entryTitle,
  firstWords,
  searchTerms,
  visibleText,
} from "./entry-text";

const call: Block = { type: "tool_call", id: "c1", name: "search_web", args: { q: "groves" } };
const result: Block = {
  type: "tool_result",
  callId: "c1",
  toolName: "search_web",
  text: "Oak LISTING",
  isError: false,
};

describe("blockText", () => {
  it("renders every block kind; thinking only when kept", () => {
    expect(blockText({ type: "text", text: "hi" }, { thinking: "drop" })).toBe("hi");
    expect(blockText(thinking("hmm"), { thinking: "drop" })).toBeNull();
    expect(blockText(thinking("hmm"), { thinking: "keep" })).toBe("hmm");
    expect(blockText({ type: "image", blobId: "b" as never, mimeType: "image/png" }, { thinking: "drop" })).toBe(
      "[image]",
    );
    expect(blockText(call, { thinking: "drop" })).toBe('[Tool call: search_web]\n{"q":"groves"}');
    expect(blockText({ ...result, isError: true } as Block, { thinking: "drop" })).toBe(
      "[Tool result: search_web] (error)\nOak LISTING",
    );
  });

  it("argsJson survives what JSON cannot hold", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(argsJson(undefined)).toBe("{}");
    expect(argsJson(circular)).toBe("[object Object]");
  });
});

describe("entry text", () => {
  const [q, r, t, c, b, h, failed] = linkPath([
    u("q", [{ type: "text", text: "  Where do oaks grow?  " }, thinking("never shown")]),
    a("r", [thinking("private"), { type: "text", text: "In groves." }, call]),
    tool("t", [result]),
    compaction("c", { summary: "Long summary of OAKS", firstKept: null }),
    branchSummary("b", "Tried birches"),
    handoff("h", "Handoff: maples"),
    a("f", [], { status: "error" }),
  ]) as Entry[];

  it("entryText: message text, tool-call names and tool results, summaries, documents; never thinking", () => {
    expect(entryText(q!)).toBe("  Where do oaks grow?  ");
    expect(entryText(r!)).toBe("In groves.\nsearch_web");
    expect(entryText(t!)).toBe("Oak LISTING");
    expect(entryText(c!)).toBe("Long summary of OAKS\n\nLong summary of OAKS");
    expect(entryText(b!)).toBe("Tried birches");
    expect(entryText(h!)).toBe("Handoff: maples");
    expect(entryText(failed!)).toBe("");
  });

  it("entrySearchText is entryText lower-cased, whole however long", () => {
    const long = u("long", `${"x ".repeat(10_000)}NEEDLE AT THE END`);
    const [entry] = linkPath([long]) as Entry[];
    expect(entrySearchText(entry!)).toContain("needle at the end");
    expect(entrySearchText(t!)).toBe("oak listing");
  });

  it("entryContextText counts what the model is sent (thinking included), nothing for skipped and compaction entries", () => {
    expect(entryContextText(r!)).toBe('private\n\nIn groves.\n\n[Tool call: search_web]\n{"q":"groves"}');
    expect(entryContextText(c!)).toBe("");
    expect(entryContextText(failed!)).toBe("");
    expect(visibleText((q as Extract<Entry, { type: "message" }>).content)).toBe("Where do oaks grow?");
  });

  it("the graph search finds an entry by the same text as the sidebar search", () => {
    const entries = linkPath([
      u("q", "hello"),
      a("r", [call]),
      tool("t", [result]),
      compaction("c", { summary: "S", firstKept: null }),
      handoff("h", "MAPLES everywhere"),
    ]) as Entry[];
    const model = buildGraphModel(entries, { leafId: eid("h") });
    for (const term of ["search_web", "oak listing", "maples", "s"]) {
      const byGraph = searchGraph(model, term).map((i) => model.nodes[i]?.entry?.id);
      const bySidebarText = entries.filter((e) => entrySearchText(e).includes(term)).map((e) => e.id);
      for (const id of bySidebarText) expect(byGraph).toContain(id);
    }
  });
});

describe("firstWords", () => {
  it("leaves Markdown out and cuts at a word with an ellipsis", () => {
    expect(firstWords("## Heading\n\nSome **bold** text")).toBe("Heading Some bold text");
    expect(firstWords("one two three", 2)).toBe("one two…");
    expect(firstWords("alpha beta gamma", 9, 12)).toBe("alpha beta…");
    expect(firstWords(" \n ")).toBe("");
  });

  it("never splits a surrogate pair", () => {
    const words = firstWords("😀".repeat(100), 9, 61);
    expect(words).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(words.endsWith("…")).toBe(true);
  });
});

describe("branchSummaryBody", () => {
  it("is the stored summary without the preamble finishBranchSummary put first, and any other text as it is", () => {
    const finished = finishBranchSummary("## Goal\nShip it.");
    if (finished.kind !== "summary") throw new Error(finished.error);
    expect(branchSummaryBody(finished.summary)).toBe("## Goal\nShip it.");
    // An imported summary (pi writes its own) or one that merely mentions the words keeps them.
    expect(branchSummaryBody("We explored a different branch here.\n\nMore.")).toBe(
      "We explored a different branch here.\n\nMore.",
    );
  });
});

describe("entryTitle", () => {
  it("is the first words of what an entry says, or what it is when it says nothing", () => {
    const [q, r, empty] = linkPath([
      u("q", "## How do I **sort** a list in place?"),
      a("r", [thinking("hm")]),
      a("e", []),
    ]);
    if (!q || !r || !empty) throw new Error("path");
    expect(entryTitle(q)).toBe("How do I sort a list in place?");
    expect(entryTitle(r)).toBe("Thinking only");
    expect(entryTitle(empty)).toBe("Empty");
    expect(entryTitle(linkPath([handoff("h", "")])[0] as Entry)).toBe("Handoff document");
  });
});

describe("searchTerms", () => {
  it("splits a query into lower-cased terms", () => {
    expect(searchTerms("  Oak  GROVE ")).toEqual(["oak", "grove"]);
    expect(searchTerms(undefined)).toEqual([]);
  });
});
