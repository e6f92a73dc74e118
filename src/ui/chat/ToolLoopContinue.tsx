import type { SessionId } from "../../core/session/ids";
import { continueToolLoop } from "../../state/send/send";
import { useToolLoopStore } from "../../state/tools/loop-store";

/**
 * The offer under a tool loop that stopped before the answer (issue 28): why, and "Continue". Shown
 * by its stand-in (lazy-tools.tsx) when the path ends inside the loop.
 */
export function ToolLoopContinue({ sessionId }: { sessionId: SessionId }) {
  const ended = useToolLoopStore((s) => s.ended[sessionId]);
  const why =
    ended?.kind === "limit"
      ? `The tool loop stopped at its step limit (${ended.steps} model calls).`
      : ended?.kind === "stopped"
        ? "The tool loop was stopped before the model answered."
        : ended?.kind === "compacted"
          ? "The context was compacted between two steps of the tool loop."
          : "The tool loop ended before the model answered.";
  return (
    <div className="continue-box tool-loop-continue" role="status">
      <span>{why}</span>
      <button type="button" className="primary" onClick={() => void continueToolLoop(sessionId)}>
        Continue
      </button>
    </div>
  );
}
