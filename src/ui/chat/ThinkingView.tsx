import type { ThinkingBlock } from "../../core/session/entries";

/** Reasoning the provider streamed, collapsed by default. */
export function ThinkingView({ block, streaming }: { block: ThinkingBlock; streaming?: boolean }) {
  if (!block.text && block.redactedData) {
    return <div className="thinking muted">Reasoning (redacted by the provider)</div>;
  }
  return (
    <details className="thinking">
      <summary>{streaming ? "Thinking…" : "Thinking"}</summary>
      <div className="thinking-text">{block.text}</div>
    </details>
  );
}
