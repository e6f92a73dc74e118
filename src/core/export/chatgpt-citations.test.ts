import { describe, expect, it } from "vitest";
import { mayHaveCitations, resolveCitations } from "./chatgpt-citations";

const cite = (...refs: string[]) => `\uE200cite\uE202${refs.join("\uE202")}\uE201`;
const webpages = (matched: string, items: object[]) => ({ matched_text: matched, type: "grouped_webpages", items });

describe("resolveCitations", () => {
  it("leaves text without markers alone, and says so cheaply", () => {
    expect(mayHaveCitations("plain words [1]")).toBe(false);
    expect(resolveCitations("plain words", {})).toBe("plain words");
  });

  it("numbers sources by first use and shares a number between repeats of one URL", () => {
    const text = `A ${cite("turn0search0")}. B ${cite("turn0search1", "turn0search0")}.`;
    const out = resolveCitations(text, {
      content_references: [
        webpages(cite("turn0search0"), [{ title: "One", url: "https://one.example/a" }]),
        webpages(cite("turn0search1", "turn0search0"), [
          { title: "Two", url: "https://two.example/b", attribution: "Two Times" },
          { title: "One", url: "https://one.example/a" },
        ]),
      ],
    });
    expect(out).toBe(
      "A[^1]. B[^2][^1].\n\n[^1]: [One](https://one.example/a)\n[^2]: [Two](https://two.example/b) — Two Times",
    );
  });

  it("drops markers it has no source for, with the space before them, and unclosed ones at the end of a line", () => {
    const text = `Fact ${cite("turn0search9")}. Other \uE200filecite\uE202turn0file1\uE201 done ${"\uE200cite\uE202turn1search2"}\nNext 【4†source】 line 【888763680814013†L21-L40】.\n\uE200image_group\uE202{"query":["x"]}\uE201`;
    expect(resolveCitations(text, {})).toBe("Fact. Other done\nNext line.\n");
  });

  it("shows an entity marker as its name, from the reference's alt or from the marker itself", () => {
    const marker = '\uE200entity\uE202["city", "Kyoto", 0]\uE201';
    expect(resolveCitations(`Visit ${marker} in spring.`, {})).toBe("Visit Kyoto in spring.");
    expect(
      resolveCitations(`Visit ${marker}.`, {
        content_references: [{ matched_text: marker, type: "alt_text", alt: "Kyōto" }],
      }),
    ).toBe("Visit Kyōto.");
  });

  it("links only absolute http(s) URLs, drops ChatGPT's utm_source, and keeps a URL from breaking out of its link", () => {
    const text = `x ${cite("a")} y ${cite("b")} z ${cite("c")}`;
    const out = resolveCitations(text, {
      content_references: [
        webpages(cite("a"), [{ title: "Evil", url: "javascript:alert(document.cookie)" }]),
        webpages(cite("b"), [{ title: "Rel", url: "/relative/path" }]),
        webpages(cite("c"), [{ title: "Parens", url: "https://w.example/a_(b)?utm_source=chatgpt.com&q=<x> y" }]),
      ],
    });
    expect(out).toBe("x y z[^1]\n\n[^1]: [Parens](https://w.example/a_%28b%29?q=%3Cx%3E+y)");
  });

  it("writes a hostile title as text: no HTML, no link or image syntax survives from it", () => {
    const out = resolveCitations(`t ${cite("a")}`, {
      content_references: [
        webpages(cite("a"), [
          {
            title: "<img src=x onerror=alert(1)>](javascript:alert(1)) ![i](https://evil.example/p.png)",
            url: "https://ok.example/",
          },
        ]),
      ],
    });
    expect(out).toBe(
      "t[^1]\n\n[^1]: [\\<img src=x onerror=alert(1)\\>\\](javascript:alert(1)) !\\[i\\](https://evil.example/p.png)](https://ok.example/)",
    );
  });

  it("places legacy markers by metadata.citations, whose offsets count code points (emoji before them)", () => {
    const text = "🙂🙂 Fact【3:0†source】 and【3:1†source】.";
    // Python's offsets count code points: each emoji is 1 there, 2 in a JavaScript string.
    const cp = [...text];
    const first = cp.indexOf("【");
    const second = cp.lastIndexOf("【");
    const len = [..."【3:0†source】"].length;
    expect(first).toBe(7);
    expect(text.indexOf("【")).toBe(9);
    const out = resolveCitations(text, {
      citations: [
        { start_ix: first, end_ix: first + len, metadata: { type: "webpage", title: "A", url: "https://a.example/" } },
        { start_ix: second, end_ix: second + len, metadata: { type: "webpage", title: "B", url: "" } },
      ],
    });
    expect(out).toBe("🙂🙂 Fact[^1] and.\n\n[^1]: [A](https://a.example/)");
  });

  it("uses another footnote label when the reply has footnotes of its own", () => {
    const out = resolveCitations(`Own[^1] and ${cite("a")}\n\n[^1]: mine`, {
      content_references: [webpages(cite("a"), [{ title: "A", url: "https://a.example/" }])],
    });
    expect(out).toBe("Own[^1] and[^cite-1]\n\n[^1]: mine\n\n[^cite-1]: [A](https://a.example/)");
  });
});
