import type { Entry } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { continueToolLoop } from "../../state/send/send";
import { useToolLoopStore } from "../../state/tools/loop-store";

/**
 * Whether the path ends inside a tool loop the model has not answered yet: in tool results (the step
 * limit, Stop, a reload between steps), or in a reply whose calls got no result (a reload while asking);
 * either one under a compaction made between two steps.
 */
function endsMidLoop(path: readonly Entry[]): boolean {
  // A compaction between two steps (auto-continue off) ends the path where the loop was.
  const end = path.at(-1);
  const last = end?.type === "compaction" ? path.at(-2) : end;
  if (last?.type !== "message") return false;
  if (last.role === "tool") return true;
  return last.role === "assistant" && last.content.some((b) => b.type === "tool_call");
}

/** The offer under a tool loop that stopped before the answer (issue 28): why, and "Continue". */
export function ToolLoopContinue({ sessionId, path }: { sessionId: SessionId; path: readonly Entry[] }) {
  const ended = useToolLoopStore((s) => s.ended[sessionId]);
  if (!endsMidLoop(path)) return null;
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
