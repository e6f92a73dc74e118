import fc from "fast-check";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { PIECE_CHARS, SPLIT_ABOVE_CHARS, splitMarkdown } from "./split-markdown";

const parser = unified().use(remarkParse).use(remarkGfm, { singleTilde: false }).use(remarkMath);

/** The top-level blocks `text` parses to, positions dropped. */
function blocks(text: string): unknown[] {
  const children = parser.parse(text).children;
  return JSON.parse(JSON.stringify(children, (key, value) => (key === "position" ? undefined : value)));
}

const prose = (n: number) => Array.from({ length: n }, (_, i) => `Sentence ${i} with *some* words.`).join(" ");

/** Blocks of a chat answer, some of them with blank lines inside that must never be cut. */
const BLOCKS = [
  () => prose(12),
  () => `## A heading ${prose(1)}`,
  () => "```ts\nconst a = 1;\n\nSome line at column 0\n\nconst b = 2;\n```",
  () => "~~~\nfenced\n\n# not a heading\n~~~",
  () => "$$\nx = 1\n\ny = 2\n$$",
  () => "- one\n- two\n\n  still two\n\n- three",
  () => "1. first\n2. second\n\n3. third",
  () => "> quoted\n>\n> more",
  () => "| a | b |\n| --- | --- |\n| 1 | 2 |",
  () => "    indented code\n\n    more code",
  () => "Title\n=====",
  () => "***",
  () => "Paragraph\nwith a lazy line\n---",
];

describe("splitMarkdown", () => {
  it("leaves a short text whole", () => {
    expect(splitMarkdown(prose(3))).toEqual([prose(3)]);
  });

  it("cuts a long answer into pieces of about PIECE_CHARS, at block starts", () => {
    const text = Array.from({ length: 30 }, () => prose(8)).join("\n\n");
    expect(text.length).toBeGreaterThan(SPLIT_ABOVE_CHARS);
    const pieces = splitMarkdown(text);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join("")).toBe(text);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(PIECE_CHARS);
  });

  it("never cuts inside a fence, however long", () => {
    const code = Array.from({ length: 200 }, (_, i) => (i % 5 === 0 ? "" : `line ${i} at column zero`)).join("\n");
    const text = `${prose(4)}\n\n\`\`\`\n${code}\n\`\`\`\n\n${prose(40)}`;
    const pieces = splitMarkdown(text);
    expect(pieces.join("")).toBe(text);
    expect(pieces.some((p) => p.includes("line 1 at") && p.includes("line 199 at"))).toBe(true);
  });

  it("does not cut a text whose blocks may refer to each other from afar", () => {
    const long = Array.from({ length: 12 }, () => prose(8)).join("\n\n");
    expect(splitMarkdown(`${long}\n\nA note[^1].\n\n[^1]: The note.`)).toHaveLength(1);
    expect(splitMarkdown(`[x]\n\n${long}\n\n[x]: https://example.com`)).toHaveLength(1);
    expect(splitMarkdown(`<!--\n\n${long}\n\n-->`)).toHaveLength(1);
  });

  it("gives pieces that parse to the blocks of the whole text, cut at every place it allows", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(BLOCKS.length - 1), { minLength: 2, maxLength: 12 }), (kinds) => {
        const text = kinds.map((k) => BLOCKS[k]!()).join("\n\n");
        const pieces = splitMarkdown(text, { above: 0, piece: 1 });
        expect(pieces.join("")).toBe(text);
        expect(pieces.flatMap(blocks)).toEqual(blocks(text));
      }),
      { numRuns: 80 },
    );
  });
});
