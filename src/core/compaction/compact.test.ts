import { describe, expect, it } from "vitest";
import { contextTokens } from "../session/context-tokens";
import type { Block, Entry } from "../session/entries";
import {
  appendCompaction,
  built,
  contextText,
  count,
  fakeSummarizer,
  goodSummarizer,
  occurrences,
  options,
  planOf,
  SYSTEM,
  signal,
} from "../testing/compaction";
import { a, type EntrySpec, eid, linkPath, tool, u } from "../testing/entries";
import { type CompactionOutcome, type CompactionProgress, type NewCompactionEntry, runCompaction } from "./compact";
import { FRAMING_FIRST_SENTENCE } from "./digest";
import { prepareCompaction } from "./prepare";
import { DEFAULT_COMPACTION_SETTINGS } from "./settings";
import { extractTail, TAIL_MAX_CHARS } from "./verbatim-tail";

/** `turns` user/assistant pairs; assistant replies ~`replyTokens` tokens, ending with their own "next step". */
function turns(from: number, to: number, replyTokens = 400): EntrySpec[] {
  const out: EntrySpec[] = [];
  for (let i = from; i < to; i++) {
    out.push(u(`u${i}`, `fact ${i}: the answer is ${i * 7}`));
    out.push(a(`a${i}`, `${"r".repeat(replyTokens * 4)} next step ${i}`));
  }
  return out;
}

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 1000 };
const done = (o: CompactionOutcome): { entry: NewCompactionEntry; tokensAfter: number; tokensBefore: number } => {
  if (o.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(o)}`);
  return o;
};

async function compact(path: Entry[], overrides: Parameters<typeof options>[0] = {}, summarizer = goodSummarizer()) {
  const plan = planOf(prepareCompaction(path, options({ settings, ...overrides })));
  const outcome = await runCompaction(plan, { summarize: summarizer.summarize, signal: signal() });
  return { plan, outcome, calls: summarizer.calls };
}

describe("runCompaction: the entry", () => {
  it("leads with Standing facts, ends with the tail, keeps folded user turns verbatim", async () => {
    const path = linkPath(turns(0, 10));
    const { plan, outcome } = await compact(path);
    const { entry } = done(outcome);
    expect(entry.summary.startsWith("## Standing facts & constraints")).toBe(true);
    expect(entry.summary.trimEnd().endsWith("</verbatim_tail>")).toBe(true);
    const lastFolded = plan.firstKeptIndex - 1;
    expect(path[lastFolded]?.type === "message" && path[lastFolded].role).toBe("assistant");
    expect(extractTail(entry.summary)?.endsWith(`next step ${(lastFolded - 1) / 2}`)).toBe(true);
    const after = contextText(built(appendCompaction(path, entry)));
    for (let i = 0; i < 10; i++) expect(after).toContain(`fact ${i}: the answer is ${i * 7}`);
    expect(entry.keptUserTurnIds.length).toBeGreaterThan(0);
    expect(entry.shortSummary).toBe("Refactoring the parser; tests next");
    expect(entry.model).toBe("test-summarizer");
  });

  it("tokensAfter < tokensBefore, and tokensAfter is contextTokens of the path with the entry", async () => {
    const path = linkPath(turns(0, 20));
    const { outcome } = await compact(path);
    const { entry, tokensAfter, tokensBefore } = done(outcome);
    const opts = { systemPrompt: SYSTEM, targetApi: "anthropic-messages" as const };
    expect(tokensBefore).toBe(contextTokens(path, opts, count));
    expect(tokensAfter).toBe(contextTokens(appendCompaction(path, entry), opts, count));
    expect(entry.tokensAfter).toBe(tokensAfter);
    expect(tokensAfter).toBeLessThan(tokensBefore);
  });

  it("clamps the verbatim tail to 1500 characters from the start", async () => {
    const longReply = `${"intro ".repeat(1000)}FINAL: next I will run the migrations.`;
    const path = linkPath([u("u0", "go"), a("a0", longReply), ...turns(1, 6)]);
    const { entry } = done((await compact(path, { upToEntryId: eid("a0") })).outcome);
    const tail = extractTail(entry.summary) ?? "";
    expect(tail.length).toBeLessThanOrEqual(TAIL_MAX_CHARS);
    expect(tail.startsWith("[...truncated]")).toBe(true);
    expect(tail.endsWith("FINAL: next I will run the migrations.")).toBe(true);
  });

  it("records folded pastes with a visible note and evicted turns in details", async () => {
    const paste = `PASTE ${"p".repeat(8000)}`; // 2,000+ tokens > keptUserTurnMaxTokens 1,500
    const path = linkPath([u("u-paste", paste), a("a-p", "got it"), ...turns(0, 8)]);
    const { outcome, calls } = await compact(path, {
      settings: { ...settings, keptUserTurnsBudget: 12 },
    });
    const { entry } = done(outcome);
    expect(entry.summary).toContain("1 long user message(s)");
    expect(entry.keptUserTurnIds).not.toContain(eid("u-paste"));
    expect(calls[0]?.prompt).toContain("[User] (long message, not kept word for word");
    const details = entry.details as { foldedUserTurns: unknown[]; evictedUserTurnIds: string[] };
    expect(details.foldedUserTurns).toHaveLength(1);
    expect(details.evictedUserTurnIds[0]).toBe("u0"); // oldest first
  });
});

describe("runCompaction: iterative", () => {
  it("starts from the previous firstKeptEntryId and updates <previous-summary> without its tail", async () => {
    const path1 = linkPath(turns(0, 10));
    const first = await compact(path1);
    const e1 = done(first.outcome).entry;
    const oldTail = extractTail(e1.summary) ?? "";
    expect(oldTail).not.toBe("");

    const path2 = [...appendCompaction(path1, e1, "c1")];
    const more = linkPath(turns(10, 20)).map((e, i) =>
      i === 0 ? { ...e, parentId: eid("c1"), createdAt: 100 } : { ...e, createdAt: 100 + i },
    );
    const path = [...path2, ...more];
    const second = await compact(path);
    expect(second.plan.start).toBe(path.findIndex((e) => e.id === e1.firstKeptEntryId));
    expect(second.plan.history[0]?.id).toBe(e1.firstKeptEntryId);
    const prompt = second.calls[0]?.prompt ?? "";
    expect(prompt).toContain("<previous-summary>\n## Standing facts & constraints\n- fact from call 0");
    expect(prompt).not.toContain(oldTail);
    expect(prompt).not.toContain("verbatim_tail");
    const e2 = done(second.outcome).entry;
    expect(occurrences(e2.summary, "<verbatim_tail>")).toBe(1);
    // The first compaction's kept set carries over.
    for (const id of e1.keptUserTurnIds) expect(e2.keptUserTurnIds).toContain(id);
  });

  it("after 20 compactions with an echoing summarizer: one framing, one tail, every fact verbatim", async () => {
    const echo = fakeSummarizer((req) =>
      req.purpose === "short-summary"
        ? "<verbatim_tail>junk</verbatim_tail>"
        : `${req.prompt.slice(0, 3000)}\n${FRAMING_FIRST_SENTENCE}\n<verbatim_tail>\nstale\n</verbatim_tail>\n- junk`,
    );
    let path: Entry[] = [];
    for (let round = 0; round < 20; round++) {
      const specs = turns(round * 6, round * 6 + 6, 300);
      const leaf = path[path.length - 1];
      const linked = linkPath(specs).map((e, i) =>
        i === 0 ? { ...e, parentId: leaf?.id ?? null, createdAt: round * 100 } : { ...e, createdAt: round * 100 + i },
      );
      path = [...path, ...linked];
      const plan = planOf(prepareCompaction(path, options({ settings })));
      const outcome = await runCompaction(plan, { summarize: echo.summarize, signal: signal() });
      path = appendCompaction(path, done(outcome).entry, `c${round}`);
    }
    const text = contextText(built(path));
    expect(occurrences(text, FRAMING_FIRST_SENTENCE)).toBe(1);
    expect(occurrences(text, "<verbatim_tail>")).toBe(1);
    expect(occurrences(text, "</verbatim_tail>")).toBe(1);
    for (let i = 0; i < 120; i++) expect(text).toContain(`fact ${i}: the answer is ${i * 7}`);
  });
});

describe("runCompaction: split turn", () => {
  it("summarizes the prefix of a cut turn separately and merges it after the history summary", async () => {
    const call = (i: number): Block => ({ type: "tool_call", id: `c${i}`, name: "edit", args: { file: `f${i}` } });
    const steps: EntrySpec[] = [];
    for (let i = 0; i < 10; i++) {
      steps.push(a(`s${i}`, [{ type: "text", text: `step ${i} ${"z".repeat(800)}` }, call(i)]));
      steps.push(tool(`t${i}`, [{ type: "tool_result", callId: `c${i}`, text: "done", isError: false }]));
    }
    const path = linkPath([...turns(0, 4), u("u-big", "refactor all files"), ...steps]);
    const { plan, outcome, calls } = await compact(path);
    expect(plan.turnStartEntryId).toBe(eid("u-big"));
    expect(plan.turnPrefix[0]?.id).toBe(eid("u-big"));
    const purposes = calls.map((c) => c.purpose);
    expect(purposes).toEqual(["summary", "split-turn-prefix", "short-summary"]);
    expect(calls[0]?.prompt).not.toContain("refactor all files");
    expect(calls[1]?.prompt).toContain("[User]\nrefactor all files");
    expect(calls[1]?.maxOutputTokens).toBe(Math.floor(0.5 * DEFAULT_COMPACTION_SETTINGS.reserveTokens));
    expect(calls[0]?.maxOutputTokens).toBe(Math.floor(0.8 * DEFAULT_COMPACTION_SETTINGS.reserveTokens));
    const { entry } = done(outcome);
    const history = entry.summary.indexOf("fact from call 0");
    const prefix = entry.summary.indexOf("The user asked for a refactor (call 1)");
    expect(history).toBeGreaterThan(0);
    expect(prefix).toBeGreaterThan(history);
    // The kept region starts inside the turn, at an assistant message; the turn's request is kept verbatim.
    const firstKept = path[plan.firstKeptIndex];
    expect(firstKept?.type === "message" && firstKept.role).toBe("assistant");
    expect(entry.keptUserTurnIds).toContain(eid("u-big"));
  });
});

describe("runCompaction: summarizer calls", () => {
  it("sends the custom instructions in every call (windows, split-turn prefix, short summary)", async () => {
    const steps: EntrySpec[] = [];
    for (let i = 0; i < 8; i++) steps.push(a(`s${i}`, `step ${i} ${"z".repeat(2000)}`));
    const path = linkPath([...turns(0, 30, 300), u("u-big", "long turn"), ...steps]);
    const { calls, outcome } = await compact(path, {
      summarizerWindow: 6_000,
      instructions: "Focus on the database schema.",
    });
    done(outcome);
    const purposes = new Set(calls.map((c) => c.purpose));
    expect(purposes).toEqual(new Set(["summary", "split-turn-prefix", "short-summary"]));
    expect(calls.filter((c) => c.purpose === "summary").length).toBeGreaterThan(1);
    for (const c of calls) expect(c.prompt).toContain("Focus on the database schema.");
  });

  it("folds a huge input in windows, each request within the summarizer window", async () => {
    const path = linkPath([...turns(0, 60, 500), u("u-paste", "q".repeat(60_000)), a("a-x", "ok"), ...turns(60, 62)]);
    const summarizerWindow = 8_000;
    const summarizer = fakeSummarizer((req) => (req.purpose === "short-summary" ? "short" : "S".repeat(40_000)));
    const { calls, outcome } = await compact(path, { summarizerWindow }, summarizer);
    done(outcome);
    const summaries = calls.filter((c) => c.purpose === "summary");
    expect(summaries.length).toBeGreaterThan(5);
    expect(summaries[0]?.prompt).toContain(`this is part 1 of ${summaries.length}`);
    expect(summaries[1]?.prompt).toContain("<previous-summary>");
    for (const c of calls) {
      expect(count(c.system) + count(c.prompt) + c.maxOutputTokens).toBeLessThanOrEqual(summarizerWindow);
    }
  });

  it("reports progress: preparing, each window with streamed text, short summary", async () => {
    const path = linkPath(turns(0, 10));
    const plan = planOf(prepareCompaction(path, options({ settings })));
    const seen: CompactionProgress[] = [];
    const s = goodSummarizer();
    done(await runCompaction(plan, { summarize: s.summarize, signal: signal(), onProgress: (p) => seen.push(p) }));
    expect(seen[0]).toEqual({ phase: "preparing" });
    expect(seen[1]).toEqual({ phase: "summarizing", window: 1, windows: 1, text: "" });
    expect(seen.some((p) => p.phase === "summarizing" && p.text.includes("fact from call 0"))).toBe(true);
    expect(seen[seen.length - 1]).toEqual({ phase: "short-summary" });
  });
});

describe("runCompaction: failure and cancellation write nothing", () => {
  const path = linkPath(turns(0, 10));

  it("a throwing summarizer gives `failed` with its message and no entry", async () => {
    const s = fakeSummarizer(() => {
      throw new Error("overloaded_error: try later");
    });
    const { outcome } = await compact(path, {}, s);
    expect(outcome).toEqual({ kind: "failed", error: "overloaded_error: try later" });
  });

  it("an empty summary is a failure, not an empty entry", async () => {
    const { outcome } = await compact(
      path,
      {},
      fakeSummarizer(() => "  <verbatim_tail>x</verbatim_tail> "),
    );
    expect(outcome.kind).toBe("failed");
  });

  it("an abort during a call gives `cancelled`", async () => {
    const ctl = new AbortController();
    const s = fakeSummarizer(async () => {
      ctl.abort();
      throw Object.assign(new Error("aborted"), { name: "AbortError" });
    });
    const plan = planOf(prepareCompaction(path, options({ settings })));
    expect(await runCompaction(plan, { summarize: s.summarize, signal: ctl.signal })).toEqual({ kind: "cancelled" });
  });

  it("a summarizer failure is read by its shape, never by an Error's name: aborted -> cancelled, else failed with its message", async () => {
    const plan = () => planOf(prepareCompaction(path, options({ settings })));
    const signal = new AbortController().signal;
    const aborted = fakeSummarizer(async () => {
      throw { kind: "aborted", message: "Stopped." };
    });
    expect(await runCompaction(plan(), { summarize: aborted.summarize, signal })).toEqual({ kind: "cancelled" });
    const limited = fakeSummarizer(async () => {
      throw { kind: "rate_limit", message: "The provider is rate-limiting requests." };
    });
    expect(await runCompaction(plan(), { summarize: limited.summarize, signal })).toEqual({
      kind: "failed",
      error: "The provider is rate-limiting requests.",
    });
    const named = fakeSummarizer(async () => {
      throw Object.assign(new Error("renamed"), { name: "AbortError" });
    });
    expect(await runCompaction(plan(), { summarize: named.summarize, signal })).toEqual({
      kind: "failed",
      error: "renamed",
    });
  });

  it("an abort after the summarizer answered still gives `cancelled` (never a late entry)", async () => {
    const ctl = new AbortController();
    const s = fakeSummarizer((req) => {
      if (req.purpose === "short-summary") ctl.abort();
      return "## Goal\nok";
    });
    const plan = planOf(prepareCompaction(path, options({ settings })));
    expect(await runCompaction(plan, { summarize: s.summarize, signal: ctl.signal })).toEqual({ kind: "cancelled" });
  });

  it("an already aborted signal makes no call", async () => {
    const ctl = new AbortController();
    ctl.abort();
    const s = goodSummarizer();
    const plan = planOf(prepareCompaction(path, options({ settings })));
    expect(await runCompaction(plan, { summarize: s.summarize, signal: ctl.signal })).toEqual({ kind: "cancelled" });
    expect(s.calls).toHaveLength(0);
  });

  it("a failed short-summary call falls back to the summary's first sentence", async () => {
    const s = fakeSummarizer((req) => {
      if (req.purpose === "short-summary") throw new Error("429");
      return "## Standing facts & constraints\n- a\n\n## Goal\nShip the importer. More.";
    });
    const { entry } = done((await compact(path, {}, s)).outcome);
    expect(entry.shortSummary).toBe("Ship the importer.");
    expect((entry.details as { shortSummaryFallback: boolean }).shortSummaryFallback).toBe(true);
  });

  it("an overlong summary is cut back to the output budget", async () => {
    const s = fakeSummarizer((req) => (req.purpose === "short-summary" ? "ok" : "word ".repeat(100_000)));
    const { entry } = done((await compact(path, {}, s)).outcome);
    expect(count(entry.summary)).toBeLessThan(0.8 * DEFAULT_COMPACTION_SETTINGS.reserveTokens + 1_000);
    expect(count(entry.summary)).toBeGreaterThan(0.8 * DEFAULT_COMPACTION_SETTINGS.reserveTokens - 10);
  });
});
