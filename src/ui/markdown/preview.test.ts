// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { PREVIEW_CSP } from "../../security-headers";
import {
  buildSrcdoc,
  figureFrameHeight,
  isSvgMarkup,
  PREVIEW_SANDBOX,
  previewKindOf,
  svgIntrinsicSize,
} from "./preview";

describe("previewKindOf", () => {
  it("gives html, svg and mermaid blocks a preview", () => {
    expect(previewKindOf("html", "<p>x</p>")).toBe("html");
    expect(previewKindOf("HTML", "<p>x</p>")).toBe("html");
    expect(previewKindOf("svg", "<svg></svg>")).toBe("svg");
    expect(previewKindOf("mermaid", "graph TD; A-->B")).toBe("mermaid");
  });

  it("gives an xml block a preview only when it is an <svg>", () => {
    expect(previewKindOf("xml", '<?xml version="1.0"?>\n<!-- x -->\n<svg viewBox="0 0 1 1"/>')).toBe("svg");
    expect(previewKindOf("xml", "<note><to>Tove</to></note>")).toBeUndefined();
  });

  it("gives other blocks none", () => {
    for (const lang of [undefined, "js", "ts", "css", "python", "text", "svgx"]) {
      expect(previewKindOf(lang, "<svg></svg>")).toBeUndefined();
    }
  });

  it("reads an svg root only at the start", () => {
    expect(isSvgMarkup("  <svg>")).toBe(true);
    expect(isSvgMarkup("<svgfoo>")).toBe(false);
    expect(isSvgMarkup("<g><svg></svg></g>")).toBe(false);
  });
});

describe("buildSrcdoc", () => {
  const hostile = '<script>parent.indexedDB.open("grove")</script><meta http-equiv="refresh" content="0">';

  it("starts with the network-less CSP as its first element, for every kind", () => {
    for (const kind of ["html", "svg", "mermaid"] as const) {
      const doc = new DOMParser().parseFromString(buildSrcdoc(kind, hostile), "text/html");
      const first = doc.head.firstElementChild;
      expect(first?.tagName).toBe("META");
      expect(first?.getAttribute("http-equiv")).toBe("Content-Security-Policy");
      expect(first?.getAttribute("content")).toBe(PREVIEW_CSP);
    }
  });

  it("the CSP allows no network source", () => {
    const directives = new Map(
      PREVIEW_CSP.split(";").map((d) => {
        const [name = "", ...sources] = d.trim().split(/\s+/);
        return [name, sources] as const;
      }),
    );
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("img-src")).toEqual(["data:", "blob:"]);
    expect(directives.get("form-action")).toEqual(["'none'"]);
    for (const name of ["connect-src", "frame-src", "child-src", "font-src", "media-src", "object-src"]) {
      expect(directives.has(name)).toBe(false); // falls back to default-src 'none'
    }
    expect(PREVIEW_CSP).not.toMatch(/https?:|\*|'self'/);
  });

  it("keeps the content after the policy, and never asks for the app's origin", () => {
    const html = buildSrcdoc("html", hostile);
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<script>"));
    expect(PREVIEW_SANDBOX).toBe("allow-scripts");
    expect(PREVIEW_SANDBOX).not.toContain("allow-same-origin");
  });
});

describe("figure size", () => {
  it("reads viewBox first, then numeric width/height", () => {
    expect(svgIntrinsicSize('<svg viewBox="0 0 200 100" width="50%">')).toEqual({ width: 200, height: 100 });
    expect(svgIntrinsicSize('<svg width="120" height="80px">')).toEqual({ width: 120, height: 80 });
    expect(svgIntrinsicSize('<svg width="100%" height="2em">')).toBeUndefined();
    expect(svgIntrinsicSize("<p>no svg</p>")).toBeUndefined();
  });

  it("scales a wide figure down to the frame and never up (plus the body margins)", () => {
    expect(figureFrameHeight({ width: 120, height: 80 }, 716)).toBe(96);
    expect(figureFrameHeight({ width: 1416, height: 700 }, 716)).toBe(363);
  });
});
