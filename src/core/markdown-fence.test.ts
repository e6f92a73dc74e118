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
