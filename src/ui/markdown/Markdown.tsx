import { type ComponentProps, memo, useDeferredValue, useId, useMemo } from "react";
import ReactMarkdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock, StreamingContext } from "./CodeBlock";
import { isFragmentHref, rehypePlugins, urlTransform } from "./pipeline";
// KaTeX's stylesheet and fonts are bundled (Vite copies the fonts next to it): no network, and
// they arrive with this lazy chunk, not the entry.
import "katex/dist/katex.min.css";
import "./markdown.css";

// GFM: tables, task lists, autolinks, footnotes, `~~strike~~`. Single-tilde strikethrough is off:
// in chat text "~5 min … ~10 MB" would otherwise strike out everything in between.
// Math: `$…$` inline and `$$…$$` blocks (and ```math fences), rendered by KaTeX (pipeline.ts).
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
      <a {...rest} href={href}>
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
 * Parses and renders. Memoized on `text`: a long finished message is not re-parsed (nor
 * re-highlighted) when its parent re-renders.
 */
const MarkdownBody = memo(function MarkdownBody({ text }: { text: string }) {
  // Footnote ids/hrefs get a per-message prefix so several messages on one page don't collide.
  const id = useId();
  const remarkRehypeOptions = useMemo(() => ({ clobberPrefix: `md-${id.replace(/[^\w-]/g, "")}-` }), [id]);
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
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
  return (
    <div className={streaming ? "md md-streaming" : "md"}>
      <StreamingContext value={streaming}>
        <MarkdownBody text={streaming ? deferred : text} />
      </StreamingContext>
    </div>
  );
}
