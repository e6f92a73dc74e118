/**
 * The engine's part of seed 002's pipeline: file-operation tags on the summary (cumulative across
 * compactions), the user's prompt overrides reaching the summarizer, and the framing and prompt
 * versions recorded on the entry, which the context builder then sends as recorded.
 */
import { describe, expect, it } from "vitest";
import { branchSummaryEntry } from "../branch/finish";
import { prepareBranchSummary } from "../branch/prepare";
import type { Block, Entry } from "../session/entries";
import { appendCompaction, built, contextText, goodSummarizer, options, planOf, signal } from "../testing/compaction";
import { a, type EntrySpec, linkPath, tool, u } from "../testing/entries";
import { estimateTokens } from "../tokens/estimate";
import { type CompactionDetails, type CompactionOutcome, type RunDeps, runCompaction } from "./compact";
import { prepareCompaction } from "./prepare";
import { DEFAULT_COMPACTION_SETTINGS } from "./settings";

const call = (id: string, name: string, path: string): Block => ({ type: "tool_call", id, name, args: { path } });
const result = (id: string): Block => ({ type: "tool_result", callId: id, text: "ok", isError: false });

/** `n` tool rounds touching `files` ([tool, path] per round), then long replies so the rounds fold. */
function session(prefix: string, files: ReadonlyArray<[string, string]>): EntrySpec[] {
  const out: EntrySpec[] = [u(`${prefix}u`, `task ${prefix}`)];
  files.forEach(([name, path], i) => {
    out.push(a(`${prefix}c${i}`, [call(`${prefix}${i}`, name, path)]));
    out.push(tool(`${prefix}t${i}`, [result(`${prefix}${i}`)]));
  });
  for (let i = 0; i < 4; i++) {
    out.push(u(`${prefix}q${i}`, `question ${i}`));
    out.push(a(`${prefix}r${i}`, `${"r".repeat(1_600)} done ${i}`));
  }
  return out;
}

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 1000 };

async function compact(path: Entry[], deps: Partial<RunDeps> = {}) {
  const summarizer = goodSummarizer();
  const plan = planOf(prepareCompaction(path, options({ settings })));
  const outcome: CompactionOutcome = await runCompaction(plan, {
    summarize: summarizer.summarize,
    signal: signal(),
    ...deps,
  });
  if (outcome.kind !== "done") throw new Error(`expected done, got ${outcome.kind}`);
  return { entry: outcome.entry, calls: summarizer.calls };
}

describe("compaction: file-operation context", () => {
  it("appends the folded part's file sets as tags and stores them; the next compaction carries them on", async () => {
    const first = linkPath(
      session("a", [
        ["read", "src/a.ts"],
        ["edit", "src/b.ts"],
        ["read", "src/b.ts"],
      ]),
    );
    const { entry } = await compact(first);
    expect(entry.summary).toContain(
      "<read-files>\nsrc/a.ts\n</read-files>\n<modified-files>\nsrc/b.ts\n</modified-files>",
    );
    expect(entry.details).toMatchObject({ readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] });
    // The tags come before the verbatim tail and once only.
    expect(entry.summary.indexOf("<read-files>")).toBeLessThan(entry.summary.indexOf("<verbatim_tail>"));

    const withFirst = appendCompaction(first, entry);
    const second = linkPath([
      ...withFirst.map(({ parentId: _p, createdAt: _c, sessionId: _s, ...e }) => e as EntrySpec),
      ...session("b", [
        ["write", "src/c.ts"],
        ["read", "src/a.ts"],
      ]),
    ]);
    const next = await compact(second);
    expect(next.entry.details).toMatchObject({ readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts", "src/c.ts"] });
    expect(next.entry.summary.match(/<read-files>/g)).toHaveLength(1);
    // The previous summary went to the summarizer without its tags (they are re-made, not echoed).
    const update = next.calls.find((c) => c.purpose === "summary");
    expect(update?.prompt).not.toContain("<read-files>");
  });
});

describe("compaction: the user's prompts", () => {
  it("overrides reach the summarizer; the versions and the framing are recorded and the framing is sent", async () => {
    const path = linkPath(session("p", [["read", "x.ts"]]));
    const { entry, calls } = await compact(path, {
      prompts: {
        compaction: "PIRATE {{conversation}}",
        "short-summary": "ONE LINE {{summary}}",
        framing: "CUSTOM FRAMING\n\n{{keptUserTurns}}\n\n{{summary}}",
      },
      promptVersions: { compaction: "custom v2", "short-summary": "custom v1", framing: "custom v1" },
    });
    expect(calls.find((c) => c.purpose === "summary")?.prompt.startsWith("PIRATE <conversation>")).toBe(true);
    expect(calls.find((c) => c.purpose === "short-summary")?.prompt.startsWith("ONE LINE")).toBe(true);
    expect((entry.details as CompactionDetails).promptVersions).toEqual({
      compaction: "custom v2",
      "short-summary": "custom v1",
      framing: "custom v1",
    });
    expect(entry.framing).toContain("CUSTOM FRAMING");
    const sent = contextText(built(appendCompaction(path, entry)));
    expect(sent).toContain("CUSTOM FRAMING");
    expect(sent).not.toContain("Earlier turns of this conversation were compacted");
  });

  it("without overrides: the shipped prompts, no framing on the entry", async () => {
    const path = linkPath(session("d", [["read", "x.ts"]]));
    const { entry, calls } = await compact(path);
    expect(calls.find((c) => c.purpose === "summary")?.prompt).toContain("Summarize the conversation below");
    expect(entry.framing).toBeUndefined();
    expect(contextText(built(appendCompaction(path, entry)))).toContain(
      "Earlier turns of this conversation were compacted",
    );
  });
});

describe("branch summary: file-operation context", () => {
  it("the branch's file sets are appended to its summary and stored on the entry", () => {
    const abandoned = linkPath(
      session("br", [
        ["read", "docs/a.md"],
        ["write", "docs/b.md"],
      ]),
    );
    const prepared = prepareBranchSummary(abandoned, { contextWindow: 100_000, countTokens: estimateTokens });
    if (prepared.kind !== "plan") throw new Error(prepared.kind);
    const entry = branchSummaryEntry(prepared.plan, "## Goal\nDocs.", {
      promptVersions: { "branch-summary": "default" },
    });
    expect(entry.summary).toBe(
      "## Goal\nDocs.\n\n<read-files>\ndocs/a.md\n</read-files>\n<modified-files>\ndocs/b.md\n</modified-files>",
    );
    expect(entry.details).toMatchObject({
      readFiles: ["docs/a.md"],
      modifiedFiles: ["docs/b.md"],
      promptVersions: { "branch-summary": "default" },
    });
  });
});
