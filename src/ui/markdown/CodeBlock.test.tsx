// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PREVIEW_CSP, PREVIEW_PAGE_PATH } from "../../security-headers";
import { Markdown } from "./Markdown";

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

  it("toggles a script-less preview; Run scripts swaps in a sandboxed frame of the preview page, posted the document (CSP first)", () => {
    render(<Markdown text={fence("html", "<script>parent.indexedDB.open('grove')</script><p>hi</p>")} />);
    const button = screen.getByRole("button", { name: "Preview" });
    expect(screen.queryByTitle("Preview")).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute("aria-pressed")).toBe("true");
    // No scripts by default (issue 24.3): the document as srcdoc under an empty sandbox.
    const inert = screen.getByTitle("Preview") as HTMLIFrameElement;
    expect(inert.getAttribute("sandbox")).toBe("");
    expect(inert.getAttribute("srcdoc")).toContain("<p>hi</p>");
    expect(inert.hasAttribute("src")).toBe(false);
    expect(screen.getByText(/may send data out/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Run scripts" }));
    const frame = screen.getByTitle("Preview") as HTMLIFrameElement;
    expect(frame.tagName).toBe("IFRAME");
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts");
    expect(frame.getAttribute("src")).toBe(PREVIEW_PAGE_PATH);
    expect(frame.hasAttribute("srcdoc")).toBe(false);
    const win = frame.contentWindow;
    if (!win) throw new Error("no frame window");
    const post = vi.spyOn(win, "postMessage").mockImplementation(() => {});
    fireEvent.load(frame);
    fireEvent.load(frame); // the written document's own load: not posted again
    expect(post).toHaveBeenCalledTimes(1);
    const [message, target] = post.mock.calls[0] ?? [];
    expect(target).toBe("*");
    const doc = (message as { type: string; document: string }).document;
    expect((message as { type: string }).type).toBe("grove-preview");
    expect(doc.startsWith(`<meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}">`)).toBe(true);
    expect(doc).toContain("<p>hi</p>");
    fireEvent.click(button);
    expect(screen.queryByTitle("Preview")).toBeNull();
  });

  it("an opened preview is still open when its row is mounted again (scrolled back, the window resized)", () => {
    const text = fence("html", "<p>kept open</p>");
    const first = render(<Markdown text={text} />);
    fireEvent.click(screen.getByRole("button", { name: "Preview" }));
    first.unmount();
    const again = render(<Markdown text={text} />);
    expect(screen.getByRole("button", { name: "Preview" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTitle("Preview").tagName).toBe("IFRAME");
    // Closed stays closed too.
    fireEvent.click(screen.getByRole("button", { name: "Preview" }));
    again.unmount();
    render(<Markdown text={text} />);
    expect(screen.getByRole("button", { name: "Preview" }).getAttribute("aria-pressed")).toBe("false");
  });
});
