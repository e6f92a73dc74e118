import { type ComponentProps, type MouseEvent, memo, useDeferredValue, useId, useMemo } from "react";
import ReactMarkdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock, StreamingContext } from "./CodeBlock";
import { mightHaveMath, useMathPlugin } from "./math";
import { isFragmentHref, rehypePlugins, urlTransform } from "./pipeline";
import { splitMarkdown } from "./split-markdown";
import "./markdown.css";

// GFM: tables, task lists, autolinks, footnotes, `~~strike~~`. Single-tilde strikethrough is off:
// in chat text "~5 min … ~10 MB" would otherwise strike out everything in between.
// Math: `$…$` inline and `$$…$$` blocks (and ```math fences), rendered by KaTeX (math.ts).
const remarkPlugins: Options["remarkPlugins"] = [[remarkGfm, { singleTilde: false }], remarkMath];

function Link({ node: _node, href, children, ...rest }: ComponentProps<"a"> & ExtraProps) {
  // urlTransform / sanitize turned an unsafe or unsupported URL into "" (or removed it): keep the
  // text, drop the link. An `<a href="">` would still be clickable and open the app itself.
  if (!href) {
    return (
      <span className="md-link-removed" title="Link removed: unsupported URL">
        {children}
      </span>
    );
  }
  // Footnote references stay in the page.
  if (isFragmentHref(href)) {
    return (
      <a {...rest} href={href} onClick={(e) => followFragment(e, href)}>
        {children}
      </a>
    );
  }
  return (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

/**
 * A footnote link (to its note, or back to the reference) moves the view and the focus itself: the
 * URL's hash names the open chat (state/app/boot.ts), so letting the browser follow `#…-fn-1`
 * would close the chat.
 */
function followFragment(e: MouseEvent<HTMLAnchorElement>, href: string): void {
  e.preventDefault();
  const target = document.getElementById(decodeURIComponent(href.slice(1)));
  if (!target) return;
  // A footnote is a list item: focusable for this move only, so a keyboard user continues from there.
  if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.tabIndex = -1;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: "center" });
}

function Table({ node: _node, ...rest }: ComponentProps<"table"> & ExtraProps) {
  return (
    <div className="md-table-wrap">
      <table {...rest} />
    </div>
  );
}

const components: Components = {
  a: Link,
  pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
  table: Table,
};

/**
 * Texts rendered once, each in a task of its own, before the first message is: a fresh tab runs
 * the pipeline's code cold, and the first message rendered took 30–50 ms of one task. Each sample
 * brings in more of it (the empty text: the processor and its plugins' syntax, GFM's alone tens of
 * ms cold; paragraphs; lists, links and inline code; GFM tables and a fenced block).
 */
export const WARM_UP_SAMPLES = [
  "",
  "Hello *there*.",
  "- a [link](https://example.com) and `code`\n1. **two**",
  "| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet a = 1;\n```",
];

/** Renders `text` to React elements and throws them away (the warm-up; no component, no hooks). */
export function renderDiscarded(text: string): void {
  ReactMarkdown({ children: text, remarkPlugins, rehypePlugins, components, urlTransform });
}

/**
 * Parses and renders. Memoized on `text`: a long finished message is not re-parsed (nor
 * re-highlighted) when its parent re-renders.
 */
const MarkdownBody = memo(function MarkdownBody({ text }: { text: string }) {
  // Footnote ids/hrefs get a per-message prefix so several messages on one page don't collide.
  const id = useId();
  const remarkRehypeOptions = useMemo(() => ({ clobberPrefix: `md-${id.replace(/[^\w-]/g, "")}-` }), [id]);
  // KaTeX (and its bundled CSS and fonts: no network) only for text that may hold math.
  const math = useMathPlugin(mightHaveMath(text));
  const plugins = useMemo(() => (math ? [...rehypePlugins, math] : rehypePlugins), [math]);
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={plugins}
      remarkRehypeOptions={remarkRehypeOptions}
      components={components}
      urlTransform={urlTransform}
    >
      {text}
    </ReactMarkdown>
  );
});

/**
 * Renders untrusted Markdown (model output or user text).
 *
 * Raw HTML is shown as literal text, never interpreted; only http(s)/mailto links survive and they
 * open in a new tab; images are shown as links, not loaded; nothing is injected as an HTML string.
 * While `streaming`, parsing follows the text through `useDeferredValue`, so a fast token stream
 * can skip intermediate parses instead of blocking input.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const deferred = useDeferredValue(text);
  const shown = streaming ? deferred : text;
  // A long text in pieces that parse to the same blocks (split-markdown.ts), each its own memoized
  // body: a transition render yields between them, and a streaming reply re-parses only its last.
  const pieces = useMemo(() => splitMarkdown(shown), [shown]);
  return (
    <div className={streaming ? "md md-streaming" : "md"}>
      <StreamingContext value={streaming}>
        {pieces.map((piece, i) => (
          // Positional keys: the pieces of a text that grows keep their place.
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces are cut in order and never reordered
          <MarkdownBody key={i} text={piece} />
        ))}
      </StreamingContext>
    </div>
  );
}
