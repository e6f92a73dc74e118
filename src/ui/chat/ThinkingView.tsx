import type { ReasoningBlock, ThinkingBlock } from "../../core/session/entries";

/**
 * Reasoning the provider streamed, collapsed by default: a thinking block, or an OpenAI reasoning
 * item's summary (its encrypted content is never shown). A reasoning item without a summary shows nothing.
 */
export function ThinkingView({ block, streaming }: { block: ThinkingBlock | ReasoningBlock; streaming?: boolean }) {
  if (block.type === "thinking" && !block.text && block.redactedData) {
    return <div className="thinking muted">Reasoning (redacted by the provider)</div>;
  }
  const text = block.type === "reasoning" ? block.summary.join("\n\n") : block.text;
  if (block.type === "reasoning" && text.trim() === "") return null;
  return (
    <details className="thinking">
      <summary>{streaming ? "Thinking…" : "Thinking"}</summary>
      <div className="thinking-text">{text}</div>
    </details>
  );
}
