// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Markdown, preloadMarkdown } from "./LazyMarkdown";

afterEach(cleanup);

describe("LazyMarkdown", () => {
  it("shows the text as written until the Markdown chunk is in, then renders it", { timeout: 20_000 }, async () => {
    const { container } = render(<Markdown text={"Hello **world**"} />);
    // First paint: the plain text, never an empty box.
    expect(container.querySelector(".md-plain")?.textContent).toBe("Hello **world**");
    expect((await screen.findByText("world", {}, { timeout: 15_000 })).tagName).toBe("STRONG");
    expect(container.querySelector(".md-plain")).toBeNull();
  });

  it("once loaded, renders Markdown from the first paint", async () => {
    await preloadMarkdown();
    const { container } = render(<Markdown text={"*now*"} />);
    expect(container.querySelector("em")?.textContent).toBe("now");
  });
});
