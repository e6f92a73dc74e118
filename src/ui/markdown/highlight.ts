/**
 * Syntax colouring of one code block, outside the Markdown render: the render shows the code as
 * plain monospace text at once, and CodeBlock asks for colours here from a later task (see
 * slice-queue.ts). highlight.js compiles a grammar on its first use, and a long block takes tens of
 * milliseconds; inside the render that was the long task of a cold open.
 *
 * Safety: highlight.js builds its tree from the code *text*; `toReact` keeps only `span`s with
 * `hljs-*` (or `name_` sub-scope) classes and text, which React escapes. No HTML string is parsed.
 */
import type { Element, ElementContent, Root } from "hast";
import { createElement, type ReactNode } from "react";
import rehypeHighlight from "rehype-highlight";

/** Extra fence names that lowlight's `common` set does not already alias. */
const HIGHLIGHT_ALIASES: Record<string, string[]> = {
  bash: ["shellscript"],
  json: ["jsonl", "ndjson"],
  plaintext: ["plain"],
  shell: ["terminal"],
  xml: ["vue", "svelte"],
};

type Transform = ReturnType<typeof rehypeHighlight>;

// Built on first use, not when the Markdown chunk is evaluated: registering the ~37 grammars of
// lowlight's `common` set is work the first paint does not need. Built once: each instance compiles
// its grammars again. No auto-detection for unlabelled fences (it runs every grammar, and is often
// wrong on short snippets); `math` fences are KaTeX's, shown as TeX until KaTeX is in.
let transform: Transform | undefined;
function highlighter(): Transform {
  transform ??= rehypeHighlight({ aliases: HIGHLIGHT_ALIASES, detect: false, plainText: ["math"] });
  return transform;
}

/** False until the grammars are registered (one job of its own: ~10–20 ms on a busy machine). */
export function highlighterReady(): boolean {
  return transform !== undefined;
}

export function prepareHighlighter(): void {
  highlighter();
}

/** An unknown language is reported through `file.message`; it simply stays uncoloured. */
const quietFile = { message() {} } as unknown as Parameters<Transform>[1];

/**
 * The highlighted children of a `code` element for `text` in `language`, or undefined when the
 * language is missing, unknown or not code.
 */
export function highlightTree(language: string | undefined, text: string): ElementContent[] | undefined {
  if (!language) return undefined;
  const code: Element = {
    type: "element",
    tagName: "code",
    properties: { className: [`language-${language}`] },
    children: [{ type: "text", value: text }],
  };
  const tree: Root = {
    type: "root",
    children: [{ type: "element", tagName: "pre", properties: {}, children: [code] }],
  };
  highlighter()(tree, quietFile);
  const className = code.properties.className;
  const coloured = Array.isArray(className) && className.includes("hljs");
  return coloured ? code.children : undefined;
}

const SPAN_CLASS = /^(hljs-[\w-]+|[a-z][a-z0-9]*_+)$/;

function classOf(node: Element): string {
  const names = node.properties.className;
  if (!Array.isArray(names)) return "";
  return names.filter((name): name is string => typeof name === "string" && SPAN_CLASS.test(name)).join(" ");
}

/** React nodes for highlighted children: spans with their token classes, and text. */
export function toReact(nodes: readonly ElementContent[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === "text") return node.value;
    if (node.type !== "element") return null;
    // Positional keys: the list is rebuilt whole for a new text, never reordered.
    const key = index;
    if (node.tagName !== "span") return createElement("span", { key }, toReact(node.children));
    return createElement("span", { key, className: classOf(node) || undefined }, toReact(node.children));
  });
}
