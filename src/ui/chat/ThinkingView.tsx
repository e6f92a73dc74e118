import type { ReasoningBlock, ThinkingBlock } from "../../core/session/entries";

/**
 * Reasoning the provider streamed, collapsed by default: a thinking block, or an OpenAI reasoning
 * item's summary (its encrypted content is never shown). A reasoning item without a summary shows nothing.
 * The group is named "Thinking" whatever its summary says; an imported block's label (ChatGPT's
 * "Thought for 16s") is shown beside that word.
 */
export function ThinkingView({ block, streaming }: { block: ThinkingBlock | ReasoningBlock; streaming?: boolean }) {
  if (block.type === "thinking" && !block.text && block.redactedData) {
    return <div className="thinking muted">Reasoning (redacted by the provider)</div>;
  }
  const text = block.type === "reasoning" ? block.summary.join("\n\n") : block.text;
  if (block.type === "reasoning" && text.trim() === "") return null;
  return (
    <details className="thinking" aria-label="Thinking">
      <summary>
        {streaming ? "Thinking…" : "Thinking"}
        {block.type === "thinking" && block.label && <span className="thinking-label"> · {block.label}</span>}
      </summary>
      <div className="thinking-text">{text}</div>
    </details>
  );
}
