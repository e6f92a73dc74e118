import { describe, expect, it } from "vitest";
import { COMPACTION_STANDING_FACTS_FALLBACK, COMPACTION_SUMMARY_CONTEXT } from "../prompts";
import {
  assembleDigest,
  cleanShortSummary,
  cleanSummarizerOutput,
  ensureStandingFactsFirst,
  FRAMING_FIRST_SENTENCE,
  firstSentence,
} from "./digest";

describe("cleanSummarizerOutput: echo stripped", () => {
  it("removes echoed framing, tails, kept-turn tags and prompt tags", () => {
    const echo = [
      COMPACTION_SUMMARY_CONTEXT.replace("{{keptUserTurns}}", "").replace("{{summary}}", ""),
      "<user_message>\nremember X\n</user_message>",
      "<verbatim_tail>\nold tail\n</verbatim_tail>",
      "<previous-summary>",
      "## Goal\nDo it.",
      "<verbatim_tail>unclosed",
    ].join("\n\n");
    const out = cleanSummarizerOutput(echo);
    expect(out).not.toContain(FRAMING_FIRST_SENTENCE);
    expect(out).not.toContain("verbatim_tail");
    expect(out).not.toContain("<user_message>");
    expect(out).not.toContain("previous-summary");
    expect(out).toContain("remember X");
    expect(out).toContain("## Goal\nDo it.");
  });

  it("removes the framing's first sentence even when rewrapped", () => {
    const wrapped = FRAMING_FIRST_SENTENCE.replace(/ /g, "\n");
    expect(cleanSummarizerOutput(`${wrapped} Then facts.`)).toBe("Then facts.");
  });
});

describe("ensureStandingFactsFirst", () => {
  it("keeps a digest that already leads with the section", () => {
    const d = "## Standing facts & constraints\n- a\n\n## Goal\ng";
    expect(ensureStandingFactsFirst(d)).toBe(d);
  });

  it("moves the section to the front when it is elsewhere", () => {
    const d = "## Goal\ng\n\n## Standing Facts and constraints\n- a\n\n## Next steps\nn";
    expect(ensureStandingFactsFirst(d)).toBe(
      "## Standing Facts and constraints\n- a\n\n## Goal\ng\n\n## Next steps\nn",
    );
  });

  it("puts the fixed section first when the summarizer wrote none", () => {
    expect(ensureStandingFactsFirst("junk")).toBe(`${COMPACTION_STANDING_FACTS_FALLBACK}\n\njunk`);
    expect(ensureStandingFactsFirst("")).toBe(COMPACTION_STANDING_FACTS_FALLBACK);
  });
});

describe("assembleDigest", () => {
  it("leads with standing facts, then the split-turn section and the folded-paste note", () => {
    const d = assembleDigest({
      summary: "## Goal\ng",
      splitTurn: "## Turn in progress\nt",
      folded: { count: 1, tokens: 3200 },
    });
    expect(d.startsWith("## Standing facts & constraints")).toBe(true);
    expect(d).toContain("## Turn in progress\nt");
    expect(d).toContain("1 long user message(s) (about 3,200 tokens in all)");
  });
});

describe("short summary", () => {
  it("cleans a good one-liner and clamps it to 120 characters", () => {
    expect(cleanShortSummary('  "**Refactor** of the parser"\n')).toBe("Refactor of the parser");
    const long = cleanShortSummary("word ".repeat(60)) ?? "";
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith("…")).toBe(true);
  });

  it("rejects junk: empty, tags, echoed framing", () => {
    expect(cleanShortSummary("   ")).toBeNull();
    expect(cleanShortSummary("<verbatim_tail>x</verbatim_tail>")).toBeNull();
    expect(cleanShortSummary(FRAMING_FIRST_SENTENCE)).toBeNull();
  });

  it("falls back to the digest's first sentence, preferring the Goal", () => {
    expect(firstSentence("## Standing facts & constraints\n- a\n\n## Goal\nShip v2. Then rest.")).toBe("Ship v2.");
    expect(firstSentence("## Standing facts & constraints\n- Always eu-west-3.")).toBe("Always eu-west-3.");
    expect(firstSentence("## Only headings")).toBeNull();
  });
});
