import { describe, expect, it } from "vitest";
import { isSlashCommand, TITLE_MAX_CHARS, titleFromModel, titleFromText, titleFromUserTexts, UNTITLED } from "./title";

describe("titleFromText", () => {
  it("takes the first words of the message", () => {
    expect(titleFromText("How do I  parse\nJSON in Rust without serde please tell me")).toBe(
      "How do I parse JSON in Rust…",
    );
  });
  it("keeps a short message whole", () => {
    expect(titleFromText("  Hello there ")).toBe("Hello there");
  });
  it("falls back for blank text", () => {
    expect(titleFromText(" \n ")).toBe(UNTITLED);
  });
  it("never splits a surrogate pair when clamping", () => {
    const title = titleFromText("😀".repeat(100));
    expect(Array.from(title).length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(title.endsWith("…")).toBe(true);
    expect(title).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe("titleFromModel", () => {
  it.each([
    ["Planning a Trip to the Alps", "Planning a Trip to the Alps"],
    ['"Sourdough Starter Help"', "Sourdough Starter Help"],
    ["**Title:** Rust borrow checker", "Rust borrow checker"],
    ["Title: CSV parsing in Go.", "CSV parsing in Go"],
    ["# Penguin census\n\nHere is why…", "Penguin census"],
    ["\n\n  «Voyage à Lyon»  \n", "Voyage à Lyon"],
    ["东京旅行计划。", "东京旅行计划"],
    ['"Sourdough Starter Help".', "Sourdough Starter Help"],
    ["'Why is the sky blue?'", "Why is the sky blue"],
    ["“Budget for a Move!!”", "Budget for a Move"],
    ["Title: `Rust lifetimes`…", "Rust lifetimes"],
    ["__Meal prep ideas__;", "Meal prep ideas"],
    ["Rust's borrow checker", "Rust's borrow checker"],
  ])("%j → %j", (raw, title) => {
    expect(titleFromModel(raw)).toBe(title);
  });

  it("nothing usable is null, and a long answer is cut like a typed title", () => {
    expect(titleFromModel("")).toBeNull();
    expect(titleFromModel('  \n "" \n')).toBeNull();
    const long = titleFromModel("word ".repeat(40))!;
    expect(Array.from(long).length).toBe(TITLE_MAX_CHARS);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("titleFromUserTexts (imported sessions)", () => {
  it("skips slash commands and takes the first real user message", () => {
    expect(titleFromUserTexts(["/model claude-sonnet-4-5", "  /compact", "Fix the flaky login test"])).toBe(
      "Fix the flaky login test",
    );
  });
  it("skips blank messages", () => {
    expect(titleFromUserTexts([" \n", "Plan the release"])).toBe("Plan the release");
  });
  it("falls back to the command when the chat has nothing else", () => {
    expect(titleFromUserTexts(["/review src/app.ts"])).toBe("/review src/app.ts");
  });
  it("is null without user messages", () => {
    expect(titleFromUserTexts([])).toBeNull();
  });
  it("a path or a slash in prose is not a command", () => {
    expect(isSlashCommand("/usr/bin is missing from PATH")).toBe(false);
    expect(isSlashCommand("Why does /usr/bin matter?")).toBe(false);
    expect(isSlashCommand("/ is the root")).toBe(false);
    expect(isSlashCommand("/skill:review the diff")).toBe(true);
  });
});
