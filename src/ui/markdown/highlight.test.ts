import { describe, expect, it } from "vitest";
import { compileGrammar, highlighterReady, highlightTree, prepareHighlighter } from "./highlight";

function registerAll(): void {
  while (!highlighterReady()) prepareHighlighter();
}

describe("compileGrammar", () => {
  it("compiles a grammar once, on the first use of a fence's name, and not a name it does not know", () => {
    expect(compileGrammar("ts")).toBe(false); // not registered yet
    registerAll();
    expect(compileGrammar(undefined)).toBe(false);
    expect(compileGrammar("no-such-language")).toBe(false);
    expect(compileGrammar("math")).toBe(false);
    expect(compileGrammar("ts")).toBe(true);
    expect(compileGrammar("ts")).toBe(false);
    expect(compileGrammar("python")).toBe(true);
    // Compiled ahead or not, the colours are the same.
    const tree = highlightTree("ts", "const a: number = 1;");
    expect(JSON.stringify(tree)).toContain("hljs-keyword");
  });
});
