/**
 * Pins (issue 29): a pinned message — any role, any size — is carried verbatim above the summary
 * through every later compaction of its path; unpinning takes it out; and the chat's system
 * prompt (the per-chat prompt when set) is in every request after every fold, since it is never
 * part of the folded region.
 */
import { describe, expect, it } from "vitest";
import { buildContext } from "../session/build-context";
import { contextTokens } from "../session/context-tokens";
import type { Block, Entry, MessageEntry } from "../session/entries";
import { asEntryId, asSessionId, type EntryId } from "../session/ids";
import { findPassage, type Passage, passageSource, pinData, pinnedIds, pinnedPassages } from "../session/pins";
import { planContext } from "../session/plan-context";
import {
  appendCompaction,
  contextText,
  count,
  fakeSummarizer,
  occurrences,
  options,
  signal,
} from "../testing/compaction";
import { runCompaction } from "./compact";
import { prepareCompaction } from "./prepare";
import { DEFAULT_COMPACTION_SETTINGS, thresholdFor } from "./settings";

const WINDOW = 14_000;
const FOLDS = 18;
const CHAT_PROMPT = "Per-chat prompt: answer in French, cite the runbook section number.";
const BUILD = { systemPrompt: CHAT_PROMPT, targetApi: "anthropic-messages" as const };

class PathBuilder {
  path: Entry[] = [];
  private n = 0;
  add(role: MessageEntry["role"], content: Block[]): EntryId {
    this.n++;
    const e: MessageEntry = {
      type: "message",
      id: asEntryId(`m${this.n}`),
      sessionId: asSessionId("pins"),
      parentId: this.path.at(-1)?.id ?? null,
      createdAt: this.n,
      role,
      content,
      status: "complete",
    };
    this.path = [...this.path, e];
    return e.id;
  }
  pin(entryId: EntryId, pinned = true, passage?: Passage): void {
    this.n++;
    this.path = [
      ...this.path,
      {
        type: "custom",
        id: asEntryId(`pin${this.n}`),
        sessionId: asSessionId("pins"),
        parentId: this.path.at(-1)?.id ?? null,
        createdAt: this.n,
        ...pinData(entryId, pinned, passage),
      },
    ];
  }
}

const turn = (b: PathBuilder, i: number): void => {
  b.add("user", [{ type: "text", text: `continue with step ${i}` }]);
  b.add("assistant", [
    { type: "text", text: `Working on step ${i}.` },
    { type: "tool_call", id: `call-${i}`, name: "bash", args: { cmd: `make step-${i}` } },
  ]);
  b.add("tool", [{ type: "tool_result", callId: `call-${i}`, text: "o".repeat(4_000), isError: false }]);
  b.add("assistant", [{ type: "text", text: `Step ${i} done.` }]);
};

describe("pins", () => {
  it("the last pin entry for a message wins; a pin before its message does not count", () => {
    const b = new PathBuilder();
    const m1 = b.add("assistant", [{ type: "text", text: "x" }]);
    b.pin(m1);
    b.pin(asEntryId("m9")); // names a message not (yet) on the path
    const m9 = b.add("assistant", [{ type: "text", text: "y" }]);
    expect(m9).toBe(asEntryId("m4"));
    expect([...pinnedIds(b.path)]).toEqual([m1]);
    b.pin(m1, false);
    expect(pinnedIds(b.path).size).toBe(0);
  });

  it("carries pinned messages byte-identical through 18 folds with a junk summarizer; the system prompt is in every request", async () => {
    const settings = DEFAULT_COMPACTION_SETTINGS;
    const threshold = thresholdFor(WINDOW, settings);
    const junk = fakeSummarizer((req, n) => (req.purpose === "short-summary" ? "" : `lorem ipsum ${n}`));
    const b = new PathBuilder();
    const decision = "We decided: the cache key is sha256(tenant || path), TTL 93 minutes.";
    const toolFact = `config says replicas=7\n${"log line\n".repeat(300)}end`;
    const longUser = `My whole spec, pinned:\n${"requirement R-17 applies. ".repeat(400)}`;
    b.add("user", [{ type: "text", text: "start" }]);
    const dId = b.add("assistant", [{ type: "text", text: decision }]);
    b.add("assistant", [{ type: "tool_call", id: "c0", name: "read", args: {} }]);
    const tId = b.add("tool", [{ type: "tool_result", callId: "c0", text: toolFact, isError: false }]);
    const uId = b.add("user", [{ type: "text", text: longUser }]);
    b.add("assistant", [{ type: "text", text: "ok" }]);
    b.pin(dId);
    b.pin(tId);
    b.pin(uId);

    let folds = 0;
    for (let i = 0; folds < FOLDS; i++) {
      turn(b, i);
      if (contextTokens(b.path, BUILD, count) <= threshold) continue;
      const prepared = prepareCompaction(
        b.path,
        options({ reason: "threshold", contextWindow: WINDOW, summarizerWindow: WINDOW, systemPrompt: CHAT_PROMPT }),
      );
      if (prepared.kind !== "plan") throw new Error(JSON.stringify(prepared));
      const outcome = await runCompaction(prepared.plan, { summarize: junk.summarize, signal: signal() });
      if (outcome.kind !== "done") throw new Error(JSON.stringify(outcome));
      b.path = appendCompaction(b.path, outcome.entry, `fold-${folds}`);
      folds++;

      const ctx = buildContext(b.path, BUILD);
      expect(ctx.system.startsWith(CHAT_PROMPT)).toBe(true);
      const text = contextText(ctx);
      expect(occurrences(text, decision)).toBe(1);
      expect(occurrences(text, toolFact)).toBe(1);
      expect(occurrences(text, longUser)).toBe(1);
      expect(outcome.entry.details).toMatchObject({ pinnedEntryIds: [dId, tId, uId] });
      // Above the summary: the pins come before it in the compaction message.
      const first = contextBlockTexts(ctx)[0] ?? "";
      expect(first.indexOf(decision)).toBeLessThan(first.indexOf(`lorem ipsum`));
    }
    expect(contextTokens(b.path, BUILD, count)).toBeLessThan(WINDOW);

    // Unpinned: gone from the next request (still in the tree, summarized like the rest).
    b.pin(dId, false);
    expect(occurrences(contextText(buildContext(b.path, BUILD)), decision)).toBe(0);
    expect(planContext(b.path).pinned.map((e) => e.id)).toEqual([tId, uId]);
  });

  it("a pinned message in the kept region is sent there once, not in the floor too", () => {
    const b = new PathBuilder();
    b.add("user", [{ type: "text", text: "q" }]);
    const a1 = b.add("assistant", [{ type: "text", text: "PINNED ANSWER" }]);
    b.pin(a1);
    const path = appendCompaction(b.path, {
      type: "compaction",
      summary: "S",
      shortSummary: "S",
      firstKeptEntryId: a1,
      keptUserTurnIds: [],
      tokensBefore: 1,
      tokensAfter: 1,
      reason: "manual",
      model: "m",
    });
    expect(planContext(path).pinned).toEqual([]);
    expect(occurrences(contextText(buildContext(path, BUILD)), "PINNED ANSWER")).toBe(1);
  });

  it("a pinned passage: found exactly in the message's text, carried byte-identical through 18 folds above the summary, removable", async () => {
    const settings = DEFAULT_COMPACTION_SETTINGS;
    const threshold = thresholdFor(WINDOW, settings);
    const junk = fakeSummarizer((req, n) => (req.purpose === "short-summary" ? "" : `lorem ipsum ${n}`));
    const b = new PathBuilder();
    b.add("user", [{ type: "text", text: "How do we rotate keys?" }]);
    const reply = `Some preamble.\n\n**Rotation:** the signing key rotates every 45 days; old keys verify for 7 more.\n\n${"Other detail. ".repeat(200)}`;
    const aId = b.add("assistant", [{ type: "text", text: reply }]);
    const message = b.path.find((e) => e.id === aId) as MessageEntry;
    // The selection as the rendered markdown shows it (no ** marks): found as the source has it.
    const tolerant = findPassage(passageSource(message), "Rotation: the signing key rotates every 45 days");
    expect(tolerant?.text).toBe("Rotation:** the signing key rotates every 45 days");
    const exact = findPassage(
      passageSource(message),
      "the signing key rotates every 45 days; old keys verify for 7 more.",
    );
    if (!exact) throw new Error("not found");
    expect(passageSource(message).slice(exact.start, exact.end)).toBe(exact.text);
    expect(findPassage(passageSource(message), "not in the message")).toBeNull();
    b.pin(aId, true, exact);
    expect(pinnedIds(b.path).size).toBe(0); // a passage pin is not the whole message
    expect(pinnedPassages(b.path)).toEqual([{ entryId: aId, ...exact }]);

    let folds = 0;
    for (let i = 0; folds < FOLDS; i++) {
      turn(b, i);
      if (contextTokens(b.path, BUILD, count) <= threshold) continue;
      const prepared = prepareCompaction(
        b.path,
        options({ reason: "threshold", contextWindow: WINDOW, summarizerWindow: WINDOW, systemPrompt: CHAT_PROMPT }),
      );
      if (prepared.kind !== "plan") throw new Error(JSON.stringify(prepared));
      const outcome = await runCompaction(prepared.plan, { summarize: junk.summarize, signal: signal() });
      if (outcome.kind !== "done") throw new Error(JSON.stringify(outcome));
      b.path = appendCompaction(b.path, outcome.entry, `fold-${folds}`);
      folds++;
      const ctx = buildContext(b.path, BUILD);
      const first = contextBlockTexts(ctx)[0] ?? "";
      expect(occurrences(contextText(ctx), exact.text)).toBe(1);
      expect(first).toContain(`<pinned_passage role="assistant">\n${exact.text}\n</pinned_passage>`);
      expect(first.indexOf(exact.text)).toBeLessThan(first.indexOf("lorem ipsum"));
      // Only the passage: the rest of the reply is folded.
      expect(occurrences(contextText(ctx), "Some preamble.")).toBe(0);
      expect(outcome.entry.details).toMatchObject({ pinnedPassages: [{ entryId: aId, ...exact }] });
    }
    b.pin(aId, false, exact);
    expect(pinnedPassages(b.path)).toEqual([]);
    expect(occurrences(contextText(buildContext(b.path, BUILD)), exact.text)).toBe(0);
  });

  it("a passage of a message pinned whole is carried once, as the message", () => {
    const b = new PathBuilder();
    b.add("user", [{ type: "text", text: "q" }]);
    const a1 = b.add("assistant", [{ type: "text", text: "ALPHA BETA GAMMA" }]);
    b.pin(a1, true, { start: 6, end: 10, text: "BETA" });
    b.pin(a1);
    b.add("user", [{ type: "text", text: "next" }]);
    const kept = b.add("assistant", [{ type: "text", text: "ok" }]);
    const path = appendCompaction(b.path, {
      type: "compaction",
      summary: "S",
      shortSummary: "S",
      firstKeptEntryId: kept,
      keptUserTurnIds: [],
      tokensBefore: 1,
      tokensAfter: 1,
      reason: "manual",
      model: "m",
    });
    expect(planContext(path).pinnedPassages).toEqual([]);
    const text = contextText(buildContext(path, BUILD));
    expect(occurrences(text, "ALPHA BETA GAMMA")).toBe(1);
    expect(text).not.toContain("<pinned_passage");
  });
});

function contextBlockTexts(ctx: ReturnType<typeof buildContext>): string[] {
  return ctx.messages.map((m) => m.content.map((c) => ("text" in c ? c.text : "")).join("\n"));
}
