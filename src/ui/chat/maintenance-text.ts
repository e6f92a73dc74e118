/** Words for maintenance reasons and progress phases, shared by the dialogs, the status bar and the card. */
import type { CompactionReason } from "../../core/session/entries";
import type { CompactionProgress, MaintenanceOp } from "../../state/maintenance/operation";

/** The card's short label for why a compaction ran. */
export const REASON_LABEL: Record<CompactionReason, string> = {
  manual: "manual",
  threshold: "automatic · threshold",
  overflow: "automatic · overflow recovery",
  length: "automatic · output length",
  preflight: "automatic · before sending",
  idle: "automatic · while idle",
};

/** The status bar's sentence for why Grove is compacting on its own. */
export function automaticReasonText(op: MaintenanceOp): string {
  if (op.kind === "handoff") {
    return "The context reached the automatic threshold: a new session will start from a handoff document.";
  }
  if (op.kind !== "compaction") return "";
  switch (op.reason) {
    case "threshold":
      return "The context reached the automatic compaction threshold.";
    case "overflow":
      return "The provider said the request was too long: compacting, then retrying it once.";
    case "length":
      return "The reply hit the output limit with the context near full.";
    case "preflight":
      return "The next request would not fit the model's window.";
    case "idle":
      return "The chat has been idle with a large context: compacting so the next message is cheaper.";
    case "manual":
      return "";
  }
}

/** The running operation's phase, in its own words. */
export function progressText(op: MaintenanceOp): string {
  switch (op.kind) {
    case "compaction":
      return phaseText(op.progress);
    case "branch_summary":
      return op.progress.phase === "summarizing" ? "Summarizing the branch you are leaving…" : "Preparing…";
    case "handoff":
      return op.progress.phase === "writing" ? "Writing the handoff document…" : "Preparing…";
  }
}

function phaseText(progress: CompactionProgress): string {
  switch (progress.phase) {
    case "preparing":
      return "Preparing…";
    case "counting":
      return "Counting the context's tokens…";
    case "summarizing":
      return progress.windows > 1
        ? `Summarizing — window ${progress.window} of ${progress.windows}…`
        : "Summarizing the earlier conversation…";
    case "split-turn-prefix":
      return "Summarizing the start of the turn in progress…";
    case "short-summary":
      return "Writing the short summary…";
    case "native":
      return progress.method === "openai"
        ? "OpenAI is compacting the conversation…"
        : "Claude is compacting the conversation…";
    default: {
      const never: never = progress;
      return String(never);
    }
  }
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}
