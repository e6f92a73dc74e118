import { describe, expect, it } from "vitest";
import { buildSnippet } from "./snippet";

const render = (parts: ReturnType<typeof buildSnippet>) => parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join("");

describe("buildSnippet", () => {
  it("highlights every occurrence of the matched terms, case-insensitively, at word starts", () => {
    expect(render(buildSnippet("Pack for Zanzibar.\nZanzibar is warm; no bazanzibar here.", ["zanzibar"]))).toBe(
      "Pack for [Zanzibar]. [Zanzibar] is warm; no bazanzibar here.",
    );
  });

  it("opens a window a little before the first hit in a long text, with ellipses at the cut ends", () => {
    const text = `${"lorem ipsum ".repeat(40)}the needle sits here ${"dolor sit ".repeat(40)}`;
    const out = render(buildSnippet(text, ["needle"]));
    expect(out.startsWith("…")).toBe(true);
    expect(out.endsWith("…")).toBe(true);
    expect(out).toContain("the [needle] sits here");
    expect(out.length).toBeLessThan(200);
  });

  it("highlights a prefix-matched word whole (the index term is the whole word)", () => {
    expect(render(buildSnippet("Compaction folds old turns", ["compaction"]))).toBe("[Compaction] folds old turns");
  });

  it("finds CJK pairs inside a run", () => {
    expect(render(buildSnippet("我们今天学习机器学习的基础", ["机器", "器学"]))).toBe("我们今天学习[机器学]习的基础");
  });

  it("shows the start of the text, unhighlighted, when no term occurs as written (a fuzzy match)", () => {
    expect(buildSnippet("Colour theory", ["color"])).toEqual([{ text: "Colour theory", hit: false }]);
  });
});
