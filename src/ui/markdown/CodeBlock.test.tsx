// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";
import { PREVIEW_CSP } from "./preview";

afterEach(cleanup);

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\`\n`;

describe("code block Preview", () => {
  it("html, svg, mermaid and an xml <svg> get a Preview button; other blocks do not", () => {
    const text = [
      fence("html", "<p>hi</p>"),
      fence("svg", "<svg></svg>"),
      fence("mermaid", "graph TD; A-->B"),
      fence("xml", "<svg></svg>"),
      fence("xml", "<note/>"),
      fence("js", "let a = 1"),
      fence("", "<p>plain</p>"),
    ].join("\n");
    render(<Markdown text={text} />);
    expect(screen.getAllByRole("button", { name: "Preview" })).toHaveLength(4);
    expect(screen.getAllByRole("button", { name: "Copy code" })).toHaveLength(7);
  });

  it("toggles a sandboxed, srcdoc iframe titled Preview with the CSP first", () => {
    render(<Markdown text={fence("html", "<script>parent.indexedDB.open('grove')</script><p>hi</p>")} />);
    const button = screen.getByRole("button", { name: "Preview" });
    expect(screen.queryByTitle("Preview")).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute("aria-pressed")).toBe("true");
    const frame = screen.getByTitle("Preview");
    expect(frame.tagName).toBe("IFRAME");
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts");
    expect(frame.hasAttribute("src")).toBe(false);
    const srcdoc = frame.getAttribute("srcdoc") ?? "";
    expect(srcdoc.startsWith(`<meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}">`)).toBe(true);
    expect(srcdoc).toContain("<p>hi</p>");
    fireEvent.click(button);
    expect(screen.queryByTitle("Preview")).toBeNull();
  });
});
