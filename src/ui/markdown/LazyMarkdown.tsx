import { lazy, Suspense } from "react";
import "./lazy-markdown.css";

/**
 * The Markdown pipeline (micromark, GFM, highlight.js, KaTeX, sanitize) is a chunk of its own,
 * kept out of the entry chunk so the first screen parses and paints quickly. `preloadMarkdown`
 * starts fetching it at boot, in parallel with the database read, so it is usually there before
 * the first message renders; until it is, a message shows as its plain text (same box, same font),
 * never as nothing.
 */
let pending: Promise<typeof import("./Markdown")> | undefined;
export function preloadMarkdown(): Promise<typeof import("./Markdown")> {
  pending ??= import("./Markdown");
  return pending;
}

const Rendered = lazy(() => preloadMarkdown().then((m) => ({ default: m.Markdown })));

type Props = { text: string; streaming?: boolean };

function PlainText({ text, streaming }: Props) {
  return <div className={streaming ? "md md-plain md-streaming" : "md md-plain"}>{text}</div>;
}

/** Renders untrusted Markdown (see Markdown.tsx); plain text while its chunk is loading. */
export function Markdown(props: Props) {
  return (
    <Suspense fallback={<PlainText {...props} />}>
      <Rendered {...props} />
    </Suspense>
  );
}
