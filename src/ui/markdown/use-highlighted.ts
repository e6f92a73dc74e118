import { type ReactNode, useEffect, useMemo, useState } from "react";
import { BlockMemory } from "./block-memory";
import { highlighterReady, highlightTree, prepareHighlighter, toReact } from "./highlight";
import { highlightQueue } from "./slice-queue";

type Coloured = { language: string; text: string; nodes: ReactNode[] };

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
  const now = useMemo(() => {
    if (!streaming) return undefined;
    const tree = highlightTree(language, text);
    if (!tree || !language) return undefined;
    const nodes = toReact(tree);
    recent.set(language, text, nodes);
    return nodes;
  }, [streaming, language, text]);

  useEffect(() => {
    if (streaming || !language || recent.has(language, text)) return;
    const colour = () => {
      // Registering the grammars is a task of its own, not added to the first block's.
      if (!highlighterReady()) {
        prepareHighlighter();
        cancel = highlightQueue.enqueue(colour);
        return;
      }
      const tree = highlightTree(language, text);
      if (!tree) return;
      const nodes = toReact(tree);
      recent.set(language, text, nodes);
      setColoured({ language, text, nodes });
    };
    let cancel = highlightQueue.enqueue(colour);
    return () => cancel();
  }, [streaming, language, text]);

  if (streaming) return now;
  if (coloured && coloured.language === language && coloured.text === text) return coloured.nodes;
  return recall(language, text)?.nodes;
}
