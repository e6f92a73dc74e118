import { type ReactNode, useEffect, useMemo, useState } from "react";
import { highlighterReady, highlightTree, prepareHighlighter, toReact } from "./highlight";
import { highlightQueue } from "./slice-queue";

type Coloured = { language: string; text: string; nodes: ReactNode[] };

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
  const [coloured, setColoured] = useState<Coloured | undefined>(undefined);
  const now = useMemo(() => {
    if (!streaming) return undefined;
    const tree = highlightTree(language, text);
    return tree && toReact(tree);
  }, [streaming, language, text]);

  useEffect(() => {
    if (streaming || !language) return;
    const colour = () => {
      // Registering the grammars is a task of its own, not added to the first block's.
      if (!highlighterReady()) {
        prepareHighlighter();
        cancel = highlightQueue.enqueue(colour);
        return;
      }
      const tree = highlightTree(language, text);
      if (tree) setColoured({ language, text, nodes: toReact(tree) });
    };
    let cancel = highlightQueue.enqueue(colour);
    return () => cancel();
  }, [streaming, language, text]);

  if (streaming) return now;
  return coloured && coloured.language === language && coloured.text === text ? coloured.nodes : undefined;
}
