/**
 * TeX math (KaTeX, via rehype-katex) is loaded only for messages that may contain some: KaTeX and
 * its stylesheet are a large part of the Markdown pipeline, and most chats have no math. Until it
 * is in, `$…$` shows as its TeX source in a code span; then every message that asked re-renders.
 */
import { startTransition, useEffect, useState } from "react";
import type { Options } from "react-markdown";

type Pluggable = NonNullable<Options["rehypePlugins"]>[number];

let plugin: Pluggable | undefined;
let pending: Promise<Pluggable> | undefined;
const listeners = new Set<() => void>();

/** Cheap test: text math needs a `$`, a math fence the word "math". */
export function mightHaveMath(text: string): boolean {
  return text.includes("$") || /^\s*(```|~~~)\s*math\b/m.test(text);
}

export function loadMath(): Promise<Pluggable> {
  pending ??= Promise.all([import("rehype-katex"), import("katex/dist/katex.min.css")]).then(([m]) => {
    // After sanitize (it is appended to the pipeline's list): KaTeX's markup (spans with inline
    // styles, MathML) is generated from the TeX by KaTeX itself, with `trust` off (no \href, \url,
    // \htmlClass…), so it needs no second check and the schema stays strict for everything else.
    // A TeX error renders as the source in red, never a throw.
    plugin = [m.default, { throwOnError: false, strict: "ignore", trust: false, output: "htmlAndMathml" }];
    for (const listener of listeners) listener();
    return plugin;
  });
  pending.catch(() => {
    pending = undefined;
  });
  return pending;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The KaTeX rehype plugin when `needed` and loaded (starting the load when needed), else undefined. */
export function useMathPlugin(needed: boolean): Pluggable | undefined {
  // Boxed: a plugin may be a function, which useState would call.
  const [loaded, setLoaded] = useState<{ plugin: Pluggable } | undefined>(() => (plugin ? { plugin } : undefined));
  useEffect(() => {
    if (loaded || !needed) return;
    // As a transition (not useSyncExternalStore, whose updates are synchronous): the messages with
    // math re-render in slices that yield to the page.
    const update = () => startTransition(() => setLoaded(plugin ? { plugin } : undefined));
    const unsubscribe = subscribe(update);
    if (plugin) update();
    else loadMath().catch(() => {}); // stays TeX source: still readable
    return unsubscribe;
  }, [needed, loaded]);
  return needed ? loaded?.plugin : undefined;
}
