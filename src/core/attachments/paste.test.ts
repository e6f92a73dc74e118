import { describe, expect, it } from "vitest";
import { PASTE_AS_FILE_CHARS, PASTE_AS_FILE_LINES, pasteOutcome } from "./paste";

describe("pasteOutcome (issue 24.10: a huge paste must not freeze the tab)", () => {
  it("lets a short paste be typed as usual", () => {
    expect(pasteOutcome("hello\nworld")).toEqual({ kind: "type" });
    expect(pasteOutcome(Array(PASTE_AS_FILE_LINES).fill("x").join("\n"))).toEqual({ kind: "type" });
  });

  it("attaches a paste of many lines as a text file ", () => {
    const log = Array(20_000).fill("2026-01-01 INFO something happened").join("\n");
    expect(pasteOutcome(log)).toEqual({ kind: "attach", name: "pasted-text.txt" });
    expect(
      pasteOutcome(
        Array(PASTE_AS_FILE_LINES + 1)
          .fill("x")
          .join("\n"),
      ).kind,
    ).toBe("attach");
  });

  it("attaches one very long line too", () => {
    expect(pasteOutcome("a".repeat(PASTE_AS_FILE_CHARS + 1))).toEqual({ kind: "attach", name: "pasted-text.txt" });
  });
});
