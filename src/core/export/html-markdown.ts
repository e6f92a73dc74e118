/**
 * A message's Markdown as HTML for the HTML export: GFM (tables, task lists, footnotes,
 * strikethrough), code coloured by its language (lowlight, highlight.js's grammars), TeX math as
 * MathML (KaTeX: no fonts, no stylesheet, no script), Mermaid and every other fence as a code
 * block. Runs in the transfer worker: no DOM, a string out.
 *
 * Safe by the app's own rules (ui/markdown/pipeline.ts): raw HTML in the text is shown as text,
 * never parsed; images become links (a remote image is a beacon); then rehype-sanitize with a
 * strict schema; links keep only http(s), mailto and in-page `#` targets. Only after that are the
 * colours and the math added, both generated from the text by the library (KaTeX with `trust`
 * off), never taken from it. Footnote ids get a prefix per message, so two replies' notes
 * cannot clash on one page.
 */
import type { Element, ElementContent, Root, RootContent } from "hast";
import katex from "katex";
import { common, createLowlight } from "lowlight";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/** Class on a `<p>` that shows a raw HTML block as text. */
const RAW_HTML_CLASS = "raw-html";
/** Class on the `<a>` that stands in for a Markdown image. */
const IMAGE_LINK_CLASS = "image-link";

type Parent = Root | Element;

/** Depth-first rewrite: `fn` may replace each child; the replacement's children are visited next. */
function mapChildren(
  parent: Parent,
  fn: (node: RootContent, parent: Parent, insideLink: boolean) => RootContent,
  insideLink = false,
): void {
  const inLink = insideLink || (parent.type === "element" && parent.tagName === "a");
  parent.children = parent.children.map((child) => {
    const next = fn(child, parent, inLink);
    if (next.type === "element") mapChildren(next, fn, inLink);
    return next;
  }) as ElementContent[];
}

/** Raw HTML (`<script>`, `<img onerror>`) is shown as the text it is. */
function rehypeRawToText() {
  return (tree: Root): undefined => {
    mapChildren(tree, (node, parent) => {
      if (node.type !== "raw") return node;
      const text: ElementContent = { type: "text", value: node.value };
      const isBlock = parent.type === "root" || parent.tagName === "blockquote" || parent.tagName === "section";
      return isBlock
        ? { type: "element", tagName: "p", properties: { className: [RAW_HTML_CLASS] }, children: [text] }
        : text;
    });
  };
}

/** An image is a link the reader may follow, labelled by its alt text (never loaded by the page). */
function rehypeImagesToLinks() {
  return (tree: Root): undefined => {
    mapChildren(tree, (node, _parent, insideLink) => {
      if (node.type !== "element" || node.tagName !== "img") return node;
      const alt = typeof node.properties.alt === "string" && node.properties.alt.trim() ? node.properties.alt : "image";
      const text: ElementContent = { type: "text", value: alt };
      if (insideLink) return text;
      const src = node.properties.src;
      return {
        type: "element",
        tagName: "a",
        properties: { href: typeof src === "string" ? src : "", className: [IMAGE_LINK_CLASS] },
        children: [text],
      };
    });
  };
}

const defaultAttributes = defaultSchema.attributes ?? {};

/** GitHub's schema, minus images, with code's language and remark-math's classes, no second id prefix. */
const SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((tag) => tag !== "img"),
  attributes: {
    ...defaultAttributes,
    a: [
      ...(defaultAttributes.a ?? []).filter((def) => !(Array.isArray(def) && def[0] === "className")),
      ["className", "data-footnote-backref", IMAGE_LINK_CLASS],
    ],
    p: [["className", RAW_HTML_CLASS]],
    code: [["className", /^language-./, "math-inline", "math-display"]],
  },
  clobber: [],
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto"], src: [] },
};

/** Whether a link target may stay: absolute http(s)/mailto, or a place on this page. */
function safeHref(href: string): boolean {
  if (href.startsWith("#")) return true;
  try {
    const protocol = new URL(href).protocol;
    return protocol === "http:" || protocol === "https:" || protocol === "mailto:";
  } catch {
    return false; // relative: would resolve against wherever the file was saved
  }
}

/** Links lose any target the sanitizer let through that is relative; outside ones open apart. */
function rehypeSafeLinks() {
  return (tree: Root): undefined => {
    mapChildren(tree, (node) => {
      if (node.type !== "element" || node.tagName !== "a") return node;
      const href = node.properties.href;
      if (typeof href !== "string" || !safeHref(href)) {
        const { href: _href, ...rest } = node.properties;
        return { ...node, properties: rest };
      }
      return href.startsWith("#")
        ? node
        : { ...node, properties: { ...node.properties, rel: ["noopener", "noreferrer"] } };
    });
  };
}

const lowlight = createLowlight(common);
lowlight.registerAlias({ bash: ["shellscript"], json: ["jsonl", "ndjson"], xml: ["vue", "svelte"] });

function classesOf(node: Element): string[] {
  const names = node.properties.className;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
}

function textOf(node: Element): string {
  let out = "";
  for (const c of node.children) {
    if (c.type === "text") out += c.value;
    else if (c.type === "element") out += textOf(c);
  }
  return out;
}

/**
 * After sanitizing: math rendered by KaTeX (its markup as a `raw` node, the only raw HTML left),
 * and code blocks coloured, labelled with their language.
 */
function rehypeMathAndCode() {
  return (tree: Root): undefined => {
    mapChildren(tree, (node) => {
      if (node.type !== "element") return node;
      if (node.tagName === "code") {
        const classes = classesOf(node);
        if (classes.includes("math-inline") || classes.includes("math-display")) {
          return { type: "raw", value: renderMath(textOf(node), classes.includes("math-display")) };
        }
        return node;
      }
      if (node.tagName !== "pre") return node;
      const code = node.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
      if (!code) return node;
      const classes = classesOf(code);
      if (classes.includes("math-display") || classes.includes("language-math")) {
        const math: ElementContent = { type: "raw", value: renderMath(textOf(code), true) };
        return { type: "element", tagName: "div", properties: { className: ["math"] }, children: [math] };
      }
      const language = classes.find((c) => c.startsWith("language-"))?.slice("language-".length);
      if (!language) return node;
      const coloured =
        lowlight.registered(language) && language !== "math"
          ? (lowlight.highlight(language, textOf(code)).children as ElementContent[])
          : code.children;
      return {
        ...node,
        properties: { ...node.properties, dataLanguage: language },
        children: [{ ...code, properties: { className: ["hljs", `language-${language}`] }, children: coloured }],
      };
    });
  };
}

/** KaTeX as MathML only: every current browser draws it with no font or stylesheet to load. */
function renderMath(tex: string, displayMode: boolean): string {
  return katex.renderToString(tex, {
    displayMode,
    output: "mathml",
    throwOnError: false,
    strict: "ignore",
    trust: false,
  });
}

/** Ids remark-rehype gives footnotes (with no prefix), and the links between them. */
const FOOTNOTE_ID = /^(fn|fnref)-|^footnote-label$/;

/**
 * Each message's footnote ids under its own prefix (`file.data.idPrefix`), so that notes of two
 * replies on one page do not clash: the ids, the `#` links to them and the heading they name.
 */
function rehypeFootnoteIds() {
  return (tree: Root, file: { data: Record<string, unknown> }): undefined => {
    const prefix = typeof file.data.idPrefix === "string" ? file.data.idPrefix : "";
    const rename = (v: unknown) => (typeof v === "string" && FOOTNOTE_ID.test(v) ? `${prefix}${v}` : v);
    mapChildren(tree, (node) => {
      if (node.type !== "element") return node;
      const { id, href, ariaDescribedBy } = node.properties;
      const linked = typeof href === "string" && href.startsWith("#") && FOOTNOTE_ID.test(href.slice(1));
      const described = Array.isArray(ariaDescribedBy) && ariaDescribedBy.some((v) => rename(v) !== v);
      if (rename(id) === id && !linked && !described) return node;
      const properties = { ...node.properties, id: rename(id) as typeof id };
      if (linked) properties.href = `#${prefix}${href.slice(1)}`;
      if (described) properties.ariaDescribedBy = ariaDescribedBy.map((v) => String(rename(v)));
      return { ...node, properties };
    });
  };
}

/** One processor for every message (building one costs more than rendering a short reply). */
const PROCESSOR = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkMath)
  .use(remarkRehype, { allowDangerousHtml: true, clobberPrefix: "" })
  .use(rehypeRawToText)
  .use(rehypeImagesToLinks)
  .use(rehypeSanitize, SCHEMA)
  .use(rehypeSafeLinks)
  .use(rehypeFootnoteIds)
  .use(rehypeMathAndCode)
  .use(rehypeStringify, { allowDangerousHtml: true })
  .freeze();

/**
 * `text` (Markdown) as an HTML fragment. `idPrefix` keeps its footnote ids apart from other
 * messages' on the same page (letters, digits and `-` only).
 */
export function markdownToHtml(text: string, idPrefix: string): string {
  if (!MARKDOWN_SYNTAX.test(text)) return plainParagraphs(text);
  return String(PROCESSOR.processSync({ value: text, data: { idPrefix: `${idPrefix.replace(/[^\w-]/g, "")}-` } }));
}

/**
 * Anything Markdown (or GFM's autolinks) could read as syntax. Text with none of it is only
 * paragraphs, rendered directly: most chat replies are prose, and a 10,000-message export would
 * otherwise spend seconds in the parser for nothing.
 */
const MARKDOWN_SYNTAX = /[\\`*_[\]<>#|$~!&@=]|^[ \t]*(?:[-+]|\d{1,9}[.)])(?:[ \t]|$)|^(?: {4}|\t)|:\/\/|www\./m;

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Blank-line-separated paragraphs, escaped, as remark would write them. */
function plainParagraphs(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${p.replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c).replace(/[ \t]+\n/g, "\n")}</p>`)
    .join("\n");
}
