import { describe, expect, it } from "vitest";
import {
  BRANCH_SUMMARY_CONTEXT,
  COMPACTED_SYSTEM_NOTE,
  COMPACTION_KEPT_USER_TURNS,
  COMPACTION_SUMMARY_CONTEXT,
  fillTemplate,
  HANDOFF_CONTEXT,
} from "./prompts";

describe("prompt files", () => {
  it("load through ?raw, trimmed, with the placeholders buildContext fills", () => {
    expect(COMPACTION_SUMMARY_CONTEXT).toContain("{{keptUserTurns}}");
    expect(COMPACTION_SUMMARY_CONTEXT).toContain("{{summary}}");
    expect(COMPACTION_KEPT_USER_TURNS).toContain("{{turns}}");
    expect(BRANCH_SUMMARY_CONTEXT).toContain("{{summary}}");
    expect(HANDOFF_CONTEXT).toContain("{{document}}");
    expect(COMPACTED_SYSTEM_NOTE).not.toContain("{{");
    for (const p of [
      COMPACTION_SUMMARY_CONTEXT,
      COMPACTION_KEPT_USER_TURNS,
      COMPACTED_SYSTEM_NOTE,
      BRANCH_SUMMARY_CONTEXT,
      HANDOFF_CONTEXT,
    ]) {
      expect(p).toBe(p.trim());
      expect(p.length).toBeGreaterThan(20);
    }
  });
});

describe("fillTemplate", () => {
  it("replaces placeholders with values verbatim", () => {
    expect(fillTemplate("Hi {{name}}, {{name}}!", { name: "Ada" })).toBe("Hi Ada, Ada!");
    expect(fillTemplate("cost: {{v}}", { v: "$& $1 $$" })).toBe("cost: $& $1 $$");
  });

  it("never expands placeholders that appear inside a value", () => {
    expect(fillTemplate("{{a}} / {{b}}", { a: "{{b}}", b: "B" })).toBe("{{b}} / B");
  });

  it("leaves placeholders without a value in place", () => {
    expect(fillTemplate("x {{missing}} y", {})).toBe("x {{missing}} y");
  });

  it("removes a lone placeholder line with an empty value and the blank line after it", () => {
    expect(fillTemplate("Intro.\n\n{{section}}\n\nEnd: {{v}}", { section: "", v: "1" })).toBe("Intro.\n\nEnd: 1");
    expect(fillTemplate("Intro.\n\n{{section}}\n\nEnd.", { section: "S" })).toBe("Intro.\n\nS\n\nEnd.");
    expect(fillTemplate("a {{x}} b", { x: "" })).toBe("a  b");
  });
});
