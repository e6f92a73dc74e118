import "./pruned-mark.css";

/** The small mark on a tool result the context builder sends truncated (core/session/prune-tool-outputs.ts). */
export function PrunedMark({ tokens }: { tokens: number }) {
  return (
    <span
      className="pruned-mark"
      title={`Sent to the model as "[Output truncated - ${tokens} tokens]": older tool output is pruned to save context. The full output stays here.`}
    >
      output pruned from context
    </span>
  );
}
