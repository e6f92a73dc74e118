// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sanitizeSvg } from "./sanitize-svg";

describe("sanitizeSvg (issue 30.4: Mermaid's SVG with hostile labels)", () => {
  it("drops script, handlers, links, HTML labels and external references; keeps the drawing and its style", () => {
    const hostile = [
      '<svg xmlns="http://www.w3.org/2000/svg" id="m" viewBox="0 0 10 10" onload="alert(1)">',
      "<style>#m .node rect{fill:#eee}</style>",
      '<marker id="end"><path d="M 0 0 L 10 5 z"></path></marker>',
      '<g class="node"><rect width="5" height="5"></rect><text>A &lt;img&gt;</text></g>',
      '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(2)"></div></foreignObject>',
      '<a href="javascript:alert(3)"><text>link</text></a>',
      '<image href="https://evil.example/x.png"></image><use href="https://evil.example/s.svg#a"></use>',
      "<script>alert(4)</script>",
      "</svg>",
    ].join("");
    const out = sanitizeSvg(hostile);
    expect(out).not.toMatch(/onload|onerror|<script|<img|foreignObject|javascript:|evil\.example|<a[\s>]/i);
    expect(out).toContain("<style>#m .node rect{fill:#eee}</style>");
    expect(out).toContain('<path d="M 0 0 L 10 5 z">');
    expect(out).toContain("A &lt;img&gt;");
  });
});
