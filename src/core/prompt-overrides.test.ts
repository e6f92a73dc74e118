import { describe, expect, it } from "vitest";
import { summaryPrompt } from "./compaction/requests";
import { PROMPT_LABELS, promptOverridesFrom } from "./prompt-ids";
import {
  EDITABLE_PROMPTS,
  isCustomized,
  promptLabel,
  promptTexts,
  resolvePrompt,
  withPromptReset,
  withPromptText,
} from "./prompt-overrides";
import { COMPACTION_FIRST, COMPACTION_UPDATE } from "./prompts";

describe("prompt overrides", () => {
  it("lists every editable prompt with its shipped text", () => {
    expect(EDITABLE_PROMPTS.map((p) => p.id)).toEqual([
      "compaction",
      "update",
      "split-turn",
      "short-summary",
      "branch-summary",
      "handoff",
      "framing",
      "probe-draft",
      "probe-answer",
      "probe-grade",
    ]);
    for (const p of EDITABLE_PROMPTS) {
      expect(p.shipped.length).toBeGreaterThan(0);
      for (const v of p.vars) expect(p.shipped).toContain(`{{${v}}}`);
    }
  });

  it("precedence: a non-blank override, else the shipped prompt", () => {
    expect(resolvePrompt("compaction", undefined)).toBe(COMPACTION_FIRST);
    expect(resolvePrompt("compaction", {})).toBe(COMPACTION_FIRST);
    expect(resolvePrompt("compaction", { compaction: { text: "Mine {{conversation}}", version: 1 } })).toBe(
      "Mine {{conversation}}",
    );
    expect(resolvePrompt("compaction", { compaction: { text: "   ", version: 2 } })).toBe(COMPACTION_FIRST);
    expect(resolvePrompt("compaction", { compaction: { text: null, version: 3 } })).toBe(COMPACTION_FIRST);
    // One prompt's override never touches another.
    expect(resolvePrompt("update", { compaction: { text: "Mine", version: 1 } })).toBe(COMPACTION_UPDATE);
  });

  it("every save and reset bumps the version; the label names the version in force", () => {
    let o = withPromptText({}, "compaction", "Mine {{conversation}}");
    expect(o.compaction).toEqual({ text: "Mine {{conversation}}", version: 1 });
    expect(promptLabel("compaction", o)).toBe("custom v1");
    o = withPromptText(o, "compaction", "Mine again {{conversation}}");
    expect(promptLabel("compaction", o)).toBe("custom v2");
    o = withPromptReset(o, "compaction");
    expect(o.compaction).toEqual({ text: null, version: 3 });
    expect(isCustomized("compaction", o)).toBe(false);
    expect(promptLabel("compaction", o)).toBe("default");
    o = withPromptText(o, "compaction", "Third {{conversation}}");
    expect(promptLabel("compaction", o)).toBe("custom v4");
    // Saving the shipped text is a reset.
    expect(withPromptText(o, "compaction", COMPACTION_FIRST).compaction?.text).toBeNull();
    expect(promptTexts(o)).toEqual({ compaction: "Third {{conversation}}" });
  });

  it("loads stored overrides defensively", () => {
    expect(promptOverridesFrom(undefined)).toEqual({});
    expect(
      promptOverridesFrom({
        compaction: { text: "x", version: 2 },
        update: { text: null, version: 1 },
        unknown: { text: "y", version: 1 },
        handoff: { text: 5, version: 1 },
      }),
    ).toEqual({ compaction: { text: "x", version: 2 }, update: { text: null, version: 1 } });
  });

  it("the summarizer's request uses the override", () => {
    const input = { previousSummary: null, body: "hello", window: 1, windows: 1, instructions: null };
    expect(summaryPrompt(input)).toContain("Summarize the conversation below");
    const custom = summaryPrompt(input, promptTexts({ compaction: { text: "PIRATE {{conversation}}", version: 1 } }));
    expect(custom.startsWith("PIRATE <conversation>")).toBe(true);
    expect(custom).toContain("hello");
  });
});

describe("prompt ids (prompt-ids.ts, read without the prompt texts)", () => {
  it("name every editable prompt once, with its label", () => {
    expect(EDITABLE_PROMPTS.map((p) => p.id).sort()).toEqual(Object.keys(PROMPT_LABELS).sort());
    for (const p of EDITABLE_PROMPTS) expect(p.label).toBe(PROMPT_LABELS[p.id]);
  });

  it("keep stored overrides of known prompts only", () => {
    expect(promptOverridesFrom({ compaction: { text: "x", version: 2 }, toString: { text: "y", version: 1 } })).toEqual(
      {
        compaction: { text: "x", version: 2 },
      },
    );
  });
});
