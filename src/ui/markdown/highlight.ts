/**
 * Syntax colouring of one code block, outside the Markdown render: the render shows the code as
 * plain monospace text at once, and CodeBlock asks for colours here from a later task (see
 * slice-queue.ts). highlight.js compiles a grammar on its first use, and a long block takes tens of
 * milliseconds; inside the render that was the long task of a cold open.
 *
 * Safety: highlight.js builds its tree from the code *text*; `toReact` keeps only `span`s with
 * `hljs-*` (or `name_` sub-scope) classes and text, which React escapes. No HTML string is parsed.
 */
import type { Element, ElementContent } from "hast";
import { common, createLowlight } from "lowlight";
import { createElement, type ReactNode } from "react";

/** Extra fence names that lowlight's `common` set does not already alias. */
const HIGHLIGHT_ALIASES: Record<string, string[]> = {
  bash: ["shellscript"],
  json: ["jsonl", "ndjson"],
  plaintext: ["plain"],
  shell: ["terminal"],
  xml: ["vue", "svelte"],
};

// Grammars are registered on first use, one per call of prepareHighlighter, not when the chunk is
// evaluated and not all in one job: registering lowlight's `common` set (~37 grammars) was one
// long task on its own. No auto-detection for unlabelled fences (it runs every grammar, and is
// often wrong on short snippets); `math` fences are KaTeX's, shown as TeX until KaTeX is in.
const lowlight = createLowlight();
const unregistered = Object.keys(common);

/** False until every grammar is registered (a fence's name may be any grammar's alias). */
export function highlighterReady(): boolean {
  return unregistered.length === 0;
}

/** Registers the next grammar (a job of its own, a millisecond or two); the aliases with the last. */
export function prepareHighlighter(): void {
  const name = unregistered.shift();
  if (name === undefined) return;
  lowlight.register({ [name]: common[name]! });
  if (unregistered.length === 0) lowlight.registerAlias(HIGHLIGHT_ALIASES);
}

/** A fence's name that names a registered grammar (`math` is KaTeX's, never code). */
function isGrammar(language: string | undefined): language is string {
  return !!language && language !== "math" && lowlight.registered(language);
}

const compiled = new Set<string>();

/**
 * Compiles the grammar of `language` (a fence's name) on its first use, and says whether it did:
 * highlight.js compiles a grammar whole the first time it colours with it (TypeScript's takes
 * 10 ms in Node, 30-50 ms in a fresh tab on a busy machine), so a block's first colouring is two
 * jobs, the compile and then the colours, instead of one long one. False for a name seen before,
 * or one that is not a registered grammar.
 */
export function compileGrammar(language: string | undefined): boolean {
  if (!isGrammar(language) || compiled.has(language)) return false;
  compiled.add(language);
  lowlight.highlight(language, "");
  return true;
}

/**
 * The highlighted children of a `code` element for `text` in `language`, or undefined when the
 * language is missing, unknown (or not registered yet) or not code.
 */
export function highlightTree(language: string | undefined, text: string): ElementContent[] | undefined {
  if (!isGrammar(language)) return undefined;
  return lowlight.highlight(language, text).children as ElementContent[];
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
