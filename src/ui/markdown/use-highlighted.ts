import { type ReactNode, useEffect, useMemo, useState } from "react";
import { BlockMemory } from "./block-memory";
import { highlightQueue } from "./slice-queue";

type Coloured = { language: string; text: string; nodes: ReactNode[] };

/** What this hook uses of the highlight chunk (named one by one when it arrives). */
type Highlighter = Pick<typeof import("./highlight"), "compileGrammar" | "highlightTree" | "toReact">;
let highlighter: Highlighter | undefined;
let loading: Promise<Highlighter> | undefined;

/**
 * highlight.js and its grammars are a chunk of their own, fetched when the first code block is to
 * be coloured: the Markdown chunk is evaluated (in one task) before the first message renders, and
 * highlight.js was half of it. Ready once every grammar is registered, one per job of the slice
 * queue (a fence's name can be any grammar's alias; all of them at once was one long task).
 */
function loadHighlighter(): Promise<Highlighter> {
  loading ??= import("./highlight").then(
    (m) =>
      new Promise<Highlighter>((resolve) => {
        const step = () => {
          if (m.highlighterReady()) {
            highlighter = { compileGrammar: m.compileGrammar, highlightTree: m.highlightTree, toReact: m.toReact };
            resolve(highlighter);
            return;
          }
          m.prepareHighlighter();
          highlightQueue.enqueue(step);
        };
        highlightQueue.enqueue(step);
      }),
  );
  // A failed fetch (offline before the worker cached it) may succeed next time; until then, plain.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * Blocks coloured lately: a row the virtualizer mounts again (scrolling back, a reply that just
 * finished streaming) shows its colours at once instead of flashing plain.
 */
const recent = new BlockMemory<ReactNode[]>(200);

function recall(language: string | undefined, text: string): Coloured | undefined {
  if (!language) return undefined;
  const nodes = recent.get(language, text);
  return nodes && { language, text, nodes };
}

/**
 * The coloured contents of a code block, or undefined while it shows as plain text.
 *
 * A finished block is coloured in a later task (highlightQueue), so opening a chat full of code
 * paints the code at once, as monospace text in its final box (colour changes no size), and
 * colours it a few blocks per task. A streaming block is coloured in the render, as it grows:
 * deferring it would flash it uncoloured on every token.
 */
export function useHighlighted(
  language: string | undefined,
  text: string,
  streaming: boolean,
): ReactNode[] | undefined {
  const [coloured, setColoured] = useState<Coloured | undefined>(() => recall(language, text));
  // Changes when the highlighter arrives, so a streaming block colours from then on.
  const [ready, setReady] = useState(highlighter !== undefined);
  const now = useMemo(() => {
    if (!streaming || !ready || !highlighter) return undefined;
    const tree = highlighter.highlightTree(language, text);
    if (!tree || !language) return undefined;
    const nodes = highlighter.toReact(tree);
    recent.set(language, text, nodes);
    return nodes;
  }, [streaming, language, text, ready]);

  useEffect(() => {
    if (ready || !streaming || !language) return;
    let live = true;
    loadHighlighter().then(
      () => live && setReady(true),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [ready, streaming, language]);

  useEffect(() => {
    if (streaming || !language || recent.has(language, text)) return;
    let live = true;
    const colour = () => {
      const h = highlighter;
      if (!h) {
        loadHighlighter().then(
          () => {
            if (live) cancel = highlightQueue.enqueue(colour);
          },
          () => {}, // stays plain
        );
        return;
      }
      // The grammar's first use: compiling it is this job, the colours the next.
      if (h.compileGrammar(language)) {
        cancel = highlightQueue.enqueue(colour);
        return;
      }
      const tree = h.highlightTree(language, text);
      if (!tree) return;
      const nodes = h.toReact(tree);
      recent.set(language, text, nodes);
      setColoured({ language, text, nodes });
    };
    let cancel = highlightQueue.enqueue(colour);
    return () => {
      live = false;
      cancel();
    };
  }, [streaming, language, text]);

  if (streaming) return now;
  if (coloured && coloured.language === language && coloured.text === text) return coloured.nodes;
  return recall(language, text)?.nodes;
}
