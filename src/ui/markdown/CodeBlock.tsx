import type { Element, ElementContent } from "hast";
import { createContext, type ReactNode, use, useEffect, useRef, useState } from "react";
import { BlockMemory } from "./block-memory";
import { CodePreview } from "./CodePreview";
import { canRunScripts, previewKindOf } from "./preview";
import { useHighlighted } from "./use-highlighted";

const COPIED_MS = 1500;

/** Previews opened or closed by the user: the row mounted again keeps the choice (block-memory.ts). */
const previewChoices = new BlockMemory<boolean>(200);

/** True inside a message that is still streaming: its code blocks are not finished yet. */
export const StreamingContext = createContext(false);

/** Plain text of a hast subtree (what the user sees, without highlight spans). */
function textOf(node: Element | ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

function codeChild(pre: Element | undefined): Element | undefined {
  const first = pre?.children.find((child) => child.type === "element");
  return first?.type === "element" && first.tagName === "code" ? first : undefined;
}

function languageOf(code: Element | undefined): string | undefined {
  const className = code?.properties.className;
  if (!Array.isArray(className)) return undefined;
  for (const name of className) {
    if (typeof name === "string" && name.startsWith("language-")) return name.slice("language-".length);
  }
  return undefined;
}

/**
 * A fenced code block: header with the language and a "Copy code" button, then the (highlighted)
 * `<pre>`, coloured by highlight.js after the first paint (use-highlighted.ts). `node` is the hast `<pre>` element react-markdown passes to `components.pre`.
 */
export function CodeBlock({ node, children }: { node: Element | undefined; children: ReactNode }) {
  const code = codeChild(node);
  const language = languageOf(code);
  // remark-rehype ends every fenced block's text with "\n"; copy the code as written.
  const raw = code ? textOf(code) : "";
  const text = raw.replace(/\n$/, "");

  const previewKind = previewKindOf(language, text);
  // A Mermaid block is shown as its diagram once the message is complete (half a diagram would
  // only fail to parse); "Preview" toggles it like any other preview. null: the user has not chosen.
  const streaming = use(StreamingContext);
  const coloured = useHighlighted(language, raw, streaming);
  const blockLanguage = language ?? "";
  const [previewChoice, setPreviewChoice] = useState<boolean | null>(
    () => previewChoices.get(blockLanguage, text) ?? null,
  );
  const previewOpen = previewChoice ?? (previewKind === "mermaid" && !streaming);
  const choosePreview = (open: boolean) => {
    previewChoices.set(blockLanguage, text, open);
    setPreviewChoice(open);
  };
  // Scripts in a preview are the user's explicit choice for this block, never the default (issue 24.3).
  const [scripts, setScripts] = useState(false);
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const flash = (next: "copied" | "failed") => {
    setStatus(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus("idle"), COPIED_MS);
  };

  const copy = async () => {
    try {
      // `navigator.clipboard` is undefined outside secure contexts; that TypeError lands below too.
      await navigator.clipboard.writeText(text);
      flash("copied");
    } catch {
      flash("failed");
    }
  };

  const label = status === "copied" ? "Copied" : status === "failed" ? "Copy failed" : "Copy";

  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{language ?? "text"}</span>
        {previewKind && (
          <button
            type="button"
            className="md-code-copy md-code-preview"
            aria-pressed={previewOpen}
            onClick={() => choosePreview(!previewOpen)}
          >
            Preview
          </button>
        )}
        <button
          type="button"
          className="md-code-copy"
          aria-label="Copy code"
          data-status={status}
          onClick={() => void copy()}
        >
          {label}
        </button>
        <span className="md-sr-only" aria-live="polite">
          {status === "copied" ? "Code copied" : status === "failed" ? "Could not copy code" : ""}
        </span>
      </div>
      {/* Focusable, and a named region, so a block wider than the message can be reached and
          scrolled with the keyboard and a screen reader says what it is. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must take focus to scroll by keys */}
      {/* biome-ignore lint/a11y/useSemanticElements: the <pre> is the scroll container; a <section> around it would not scroll */}
      <pre tabIndex={0} role="region" aria-label={`Code: ${language ?? "text"}`}>
        {coloured ? <code className={`hljs language-${language}`}>{coloured}</code> : children}
      </pre>
      {previewKind && previewOpen && canRunScripts(previewKind) && (
        <div className="md-preview-scripts">
          {scripts ? (
            <span>Scripts are running: this page may send data out, including this conversation.</span>
          ) : (
            <>
              <span>Scripts are off.</span>{" "}
              <button type="button" className="md-code-copy" onClick={() => setScripts(true)}>
                Run scripts
              </button>{" "}
              <span className="muted">A page with scripts may send data out, including this conversation.</span>
            </>
          )}
        </div>
      )}
      {previewKind && previewOpen && <CodePreview kind={previewKind} text={text} scripts={scripts} />}
    </div>
  );
}
