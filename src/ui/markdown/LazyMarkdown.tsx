import { startTransition, useEffect, useState } from "react";
import { nextTask } from "../../state/app/next-task";
import "./lazy-markdown.css";

type MarkdownModule = typeof import("./Markdown");

/**
 * The Markdown pipeline (micromark, GFM, highlight.js, KaTeX, sanitize) is a chunk of its own,
 * kept out of the entry chunk so the first screen parses and paints quickly. `preloadMarkdown`
 * starts fetching it at boot, in parallel with the database read, so it is usually there before
 * the first message renders; until it is, a message shows as its plain text (same box, same font),
 * never as nothing. Once loaded, every message renders it from its first paint (no Suspense round
 * trip, which would flash the plain text again).
 */
let loaded: MarkdownModule | undefined;
let pending: Promise<MarkdownModule> | undefined;
export function preloadMarkdown(): Promise<MarkdownModule> {
  pending ??= import("./Markdown").then(async (m) => {
    // Its code warmed up a sample per task (Markdown.tsx says why) before any message renders it.
    for (const sample of m.WARM_UP_SAMPLES) {
      await nextTask();
      m.renderDiscarded(sample);
    }
    loaded = m;
    return m;
  });
  // A failed fetch (offline before the worker cached it) may succeed on the next try.
  pending.catch(() => {
    pending = undefined;
  });
  return pending;
}

type Props = { text: string; streaming?: boolean };

function PlainText({ text, streaming }: Props) {
  return <div className={streaming ? "md md-plain md-streaming" : "md md-plain"}>{text}</div>;
}

/** Renders untrusted Markdown (see Markdown.tsx); plain text while its chunk is loading. */
export function Markdown(props: Props) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    // As a transition: every message on screen re-renders with the chunk, in slices that yield
    // to the page (a plain update rendered them all in one task).
    preloadMarkdown().then(
      (m) => live && startTransition(() => setModule(m)),
      () => {}, // stays plain text: still readable
    );
    return () => {
      live = false;
    };
  }, [module]);
  return module ? <module.Markdown {...props} /> : <PlainText {...props} />;
}
