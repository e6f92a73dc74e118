import { describe, expect, it } from "vitest";
import { textFileText } from "./attachments/attachment-text";
import { codeFence } from "./export/inert-markdown";
import { fenced } from "./export/markdown";
import { fenceFor, longestRun } from "./markdown-fence";

/** Issue 24.11: a text file of 300,000 backtick runs took the app down ("Maximum call stack size exceeded");
 * a million here, since a test worker's stack is larger than a tab's. */
const RUNS = "` ".repeat(1_000_000);

describe("code fences", () => {
  it("are longer than any backtick run inside, at least three", () => {
    expect(longestRun("a ```` b `` c", "`")).toBe(4);
    expect(longestRun("none", "`")).toBe(0);
    expect(fenceFor("a ```` b")).toBe("`````");
    expect(fenceFor("plain")).toBe("```");
  });

  it("are found for text of a million backtick runs without running out of stack", () => {
    expect(fenceFor(`${RUNS}\`\`\`\``)).toBe("`````");
    expect(() => textFileText({ name: "ticks.txt", text: RUNS })).not.toThrow();
    expect(() => fenced(RUNS, "text")).not.toThrow();
    expect(() => codeFence(RUNS, "text")).not.toThrow();
  });
});

describe("longestRun", () => {
  it("finds runs at the start, the end and in between, and across a whole text of them", () => {
    expect(longestRun("``a", "`")).toBe(2);
    expect(longestRun("a```", "`")).toBe(3);
    expect(longestRun("`a``b`", "`")).toBe(2);
    expect(longestRun("`````", "`")).toBe(5);
    expect(longestRun("", "`")).toBe(0);
    expect(longestRun("~~~ ``", "~")).toBe(3);
  });
});
