import { describe, expect, it } from "vitest";
import { a, linkPath, tool, u } from "../testing/entries";
import {
  clampTail,
  extractTail,
  lastAssistantText,
  makeTail,
  spliceTail,
  stripTail,
  TAIL_MAX_CHARS,
  TAIL_TRUNCATED_MARKER,
} from "./verbatim-tail";

describe("lastAssistantText", () => {
  it("takes the last assistant text, skipping tool-only, blank and skipped replies", () => {
    const p = linkPath([
      u("u1", "go"),
      a("a1", "Next step: file the follow-up."),
      a("a2", [{ type: "tool_call", id: "c", name: "x", args: {} }]),
      tool("t", [{ type: "tool_result", callId: "c", text: "r", isError: false }]),
      a("a3", "   "),
      a("a4", [], { status: "error" }),
      u("u2", "user text is never the tail"),
    ]);
    expect(lastAssistantText(p)).toBe("Next step: file the follow-up.");
  });

  it("joins a continued reply to the reply it continues", () => {
    const p = linkPath([a("a1", "The first half, "), a("a2", "and the second.", { continues: "a1" as never })]);
    expect(lastAssistantText(p)).toBe("The first half, and the second.");
  });

  it("is null without assistant text", () => {
    expect(lastAssistantText(linkPath([u("u1", "hi")]))).toBeNull();
  });
});

describe("clampTail: at most 1500 characters, clamped from the start", () => {
  it("keeps short text as it is", () => {
    expect(clampTail("  short  ")).toBe("short");
  });

  it("keeps the END with a [...truncated] marker", () => {
    const text = `${"a".repeat(3000)}NEXT STEP: ship it`;
    const t = clampTail(text);
    expect(t.length).toBeLessThanOrEqual(TAIL_MAX_CHARS);
    expect(t.startsWith(`${TAIL_TRUNCATED_MARKER}\n`)).toBe(true);
    expect(t.endsWith("NEXT STEP: ship it")).toBe(true);
  });

  it("never splits a surrogate pair or an emoji sequence", () => {
    const family = "👨‍👩‍👧‍👦"; // 11 UTF-16 units, one grapheme
    for (let pad = 0; pad < 12; pad++) {
      const t = clampTail(`${"x".repeat(pad)}${family.repeat(400)}`);
      const body = t.slice(TAIL_TRUNCATED_MARKER.length + 1);
      expect(t.length).toBeLessThanOrEqual(TAIL_MAX_CHARS);
      expect(body.startsWith(family)).toBe(true);
    }
    const astral = "𝒳".repeat(2000); // surrogate pairs
    const body = clampTail(astral).slice(TAIL_TRUNCATED_MARKER.length + 1);
    expect(body.charCodeAt(0)).toBe("𝒳".charCodeAt(0));
  });
});

describe("spliceTail: replaced, never stacked", () => {
  it("appends a tail block after the digest", () => {
    expect(spliceTail("digest", "tail")).toBe("digest\n\n<verbatim_tail>\ntail\n</verbatim_tail>");
  });

  it("replaces a previous tail and removes stray tags", () => {
    let s = "digest";
    for (let i = 0; i < 20; i++) s = spliceTail(`${s}\n<verbatim_tail>echo`, `tail ${i}`);
    expect(s.match(/<verbatim_tail>/g)).toHaveLength(1);
    expect(s.match(/<\/verbatim_tail>/g)).toHaveLength(1);
    expect(extractTail(s)).toBe("tail 19");
  });

  it("escapes tail tags inside the tail text, so the block stays findable", () => {
    const s = spliceTail("d", makeTail("I wrote </verbatim_tail> here"));
    expect(s.match(/<\/verbatim_tail>/g)).toHaveLength(1);
    expect(stripTail(s)).toBe("d");
  });

  it("writes no block for a null tail", () => {
    expect(spliceTail("d\n\n<verbatim_tail>\nold\n</verbatim_tail>", null)).toBe("d");
  });
});
