import { describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_CONTEXT, fillTemplate, HANDOFF_CONTEXT } from "../prompts";
import { contextTokens, MESSAGE_OVERHEAD_TOKENS } from "../session/context-tokens";
import type { EntryId } from "../session/ids";
import {
  a,
  blobId,
  branchSummary,
  compaction,
  eid,
  handoff,
  linkPath,
  text,
  thinking,
  tool,
  u,
} from "../session/test-entries";
import {
  countEntryTokens,
  entryContextTexts,
  entryTokenKey,
  entryTokenRows,
  mergeEntryCounts,
  uncountedEntries,
} from "./entry-tokens";

/** One token per character: makes the arithmetic visible. */
const chars = (s: string) => s.length;

describe("entryContextTexts", () => {
  it("renders every block the way buildContext sends it", () => {
    const [assistant, toolMessage] = linkPath([
      a("a1", [thinking("hmm"), text("Hi"), { type: "tool_call", id: "c1", name: "read", args: { path: "x" } }]),
      tool("t1", [
        { type: "tool_result", callId: "c1", toolName: "read", text: "file body", isError: false },
        { type: "image", blobId: blobId("b1"), mimeType: "image/png" },
      ]),
    ]);
    if (!assistant || !toolMessage) throw new Error("fixture");
    expect(entryContextTexts(assistant)).toEqual(["hmm", "Hi", '[Tool call: read]\n{"path":"x"}']);
    expect(entryContextTexts(toolMessage)).toEqual(["[Tool result: read]\nfile body", "[image]"]);
  });

  it("uses the context templates for summaries and handoffs, and nothing for a skipped error reply", () => {
    const [bs, ho, err, comp] = linkPath([
      branchSummary("b1", "what happened on the other branch"),
      handoff("h1", "the handoff document"),
      a("e1", [], { status: "error", error: { kind: "network", message: "offline" } }),
      compaction("c1", { summary: "the digest", firstKept: null }),
    ]);
    if (!bs || !ho || !err || !comp) throw new Error("fixture");
    expect(entryContextTexts(bs)).toEqual([
      fillTemplate(BRANCH_SUMMARY_CONTEXT, { summary: "what happened on the other branch" }),
    ]);
    expect(entryContextTexts(ho)).toEqual([fillTemplate(HANDOFF_CONTEXT, { document: "the handoff document" })]);
    expect(entryContextTexts(err)).toEqual([]);
    expect(countEntryTokens(err, chars)).toBe(0);
    const [compactionText] = entryContextTexts(comp);
    expect(compactionText).toContain("the digest");
    expect(compactionText).not.toContain("<user_message>");
  });
});

describe("countEntryTokens", () => {
  it("sums to contextTokens on an alternating path (no merges), with the system prompt apart", () => {
    const path = linkPath([
      u("u1", "Hello there"),
      a("a1", "General Kenobi"),
      u("u2", [text("Two"), text("blocks")]),
      a("a2", "ok"),
    ]);
    const opts = { systemPrompt: "", targetApi: "openai-chat" as const };
    const sum = path.reduce((n, e) => n + countEntryTokens(e, chars), 0);
    expect(sum).toBe(contextTokens(path, opts, chars));
    expect(countEntryTokens(path[0]!, chars)).toBe(MESSAGE_OVERHEAD_TOKENS + "Hello there".length);
  });
});

describe("cache helpers", () => {
  const path = linkPath([u("u1", "one"), a("a1", "two"), u("u2", "three")]);

  it("keys a count by entry id and encoding", () => {
    expect(entryTokenKey(path[0]!, "o200k_base")).toEqual([eid("u1"), "o200k_base"]);
  });

  it("counts only what the cache lacks, once each, and merges cached with fresh counts", () => {
    const cached = new Map<EntryId, number>([[eid("a1"), 7]]);
    const todo = uncountedEntries([...path, path[0]!], cached);
    expect(todo.map((e) => e.id)).toEqual([eid("u1"), eid("u2")]);

    const fresh: Record<EntryId, number> = {};
    for (const e of todo) fresh[e.id] = countEntryTokens(e, chars);
    expect(entryTokenRows(fresh, "claude")).toEqual([
      { entryId: eid("u1"), encoding: "claude", count: MESSAGE_OVERHEAD_TOKENS + 3 },
      { entryId: eid("u2"), encoding: "claude", count: MESSAGE_OVERHEAD_TOKENS + 5 },
    ]);
    const all = mergeEntryCounts(path, cached, fresh);
    expect([...all.values()]).toEqual([MESSAGE_OVERHEAD_TOKENS + 3, 7, MESSAGE_OVERHEAD_TOKENS + 5]);
  });
});
