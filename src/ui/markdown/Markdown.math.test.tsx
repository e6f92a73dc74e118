// @vitest-environment jsdom
import { cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";
import { loadMath, mightHaveMath } from "./math";

afterEach(cleanup);

// First, while KaTeX is not loaded yet (module state: this test must run before any other loads it).
describe("math, loaded on demand", () => {
  it("shows the TeX source until KaTeX is in, then the rendered math", { timeout: 20_000 }, async () => {
    const { container } = render(<Markdown text={"Inline $a^2$."} />);
    expect(container.querySelector(".katex")).toBeNull();
    expect(container.querySelector("code")?.textContent).toBe("a^2");
    await waitFor(() => expect(container.querySelector(".katex")).not.toBeNull(), { timeout: 15_000 });
  });

  it("only text with a $ or a math fence asks for it", () => {
    expect(mightHaveMath("no math here")).toBe(false);
    expect(mightHaveMath("costs $5")).toBe(true);
    expect(mightHaveMath("```math\nx\n```")).toBe(true);
  });
});

describe("math", () => {
  beforeAll(() => loadMath());

  it("renders $…$ inline and $$…$$ as a display block, with MathML", () => {
    const { container } = render(<Markdown text={"Inline $a^2$ and\n\n$$\nb_1\n$$\n"} />);
    expect(container.querySelectorAll(".katex")).toHaveLength(2);
    expect(container.querySelectorAll(".katex-display")).toHaveLength(1);
    expect(container.querySelector("math annotation")?.textContent).toBe("a^2");
  });

  it("keeps KaTeX from making links or classes out of TeX (trust is off)", () => {
    const { container } = render(
      <Markdown text={"$\\href{javascript:alert(1)}{x}$ $\\htmlClass{evil}{y}$ $\\url{https://x.example}$"} />,
    );
    expect(container.querySelector("a")).toBeNull();
    expect(container.querySelector(".evil")).toBeNull();
  });

  it("shows a TeX error as its source and renders the rest", () => {
    const { container } = render(<Markdown text={"Bad $\\frac{1}{$ then **bold**"} />);
    expect(container.querySelector(".katex-error")?.textContent).toBe("\\frac{1}{");
    expect(container.querySelector("strong")?.textContent).toBe("bold");
  });

  it("leaves code spans and fences alone", () => {
    const { container } = render(<Markdown text={"`$x$`\n\n```js\nconst a = `$b$`;\n```\n"} />);
    expect(container.querySelector(".katex")).toBeNull();
  });
});
