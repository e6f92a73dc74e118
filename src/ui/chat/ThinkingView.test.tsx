// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ThinkingView } from "./ThinkingView";

afterEach(cleanup);

describe("ThinkingView", () => {
  it("is a folded group named Thinking that shows an imported block's label", () => {
    render(<ThinkingView block={{ type: "thinking", text: "Compare the soles.", label: "Thought for 16s" }} />);
    const group = screen.getByRole("group", { name: "Thinking" });
    expect(group.hasAttribute("open")).toBe(false);
    expect(group.querySelector("summary")?.textContent).toBe("Thinking · Thought for 16s");
  });

  it("without a label, the summary is the word alone", () => {
    render(<ThinkingView block={{ type: "thinking", text: "Hmm." }} />);
    expect(screen.getByRole("group", { name: "Thinking" }).querySelector("summary")?.textContent).toBe("Thinking");
  });
});
