import { describe, expect, it } from "vitest";
import { TITLE_MAX_CHARS, titleFromText, UNTITLED } from "./title";

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
