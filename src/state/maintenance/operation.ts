/**
 * What a maintenance operation is (DESIGN §4.7): a closed union of compaction, branch summary and
 * handoff, each with its own reasons and its own progress, and what the one lock shows while one
 * runs. Types and small pure answers only; the sequence itself is runner.ts.
 */
import type { CompactionReason } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";

/** Why a handoff runs: the dialog, or the threshold strategy "handoff". */
type HandoffReason = "manual" | "threshold";

export type MaintenanceOperation =
  | { kind: "compaction"; reason: CompactionReason }
  | { kind: "branch_summary"; reason: "switch" }
  | { kind: "handoff"; reason: HandoffReason };

export type MaintenanceKind = MaintenanceOperation["kind"];

export type CompactionProgress =
  | { phase: "preparing" }
  /** Taken before the count that decides it (the bar shows at once): the context's tokens are being counted. */
  | { phase: "counting" }
  | { phase: "summarizing"; window: number; windows: number }
  | { phase: "split-turn-prefix" }
  | { phase: "short-summary" }
  | { phase: "native"; method: "openai" | "anthropic" };

type BranchSummaryProgress = { phase: "preparing" } | { phase: "summarizing" };

type HandoffProgress = { phase: "preparing" } | { phase: "writing" };

export type ProgressOf<K extends MaintenanceKind> = {
  compaction: CompactionProgress;
  branch_summary: BranchSummaryProgress;
  handoff: HandoffProgress;
}[K];

type Running<O extends MaintenanceOperation> = O & {
  sessionId: SessionId;
  /** Started by Grove itself (threshold, overflow, preflight, length): shown as a status bar. */
  automatic: boolean;
  progress: ProgressOf<O["kind"]>;
  /** The summary or document text streaming in. */
  text: string;
  startedAt: number;
};

/** The operation holding the lock, as the UI reads it. */
export type MaintenanceOp =
  | Running<Extract<MaintenanceOperation, { kind: "compaction" }>>
  | Running<Extract<MaintenanceOperation, { kind: "branch_summary" }>>
  | Running<Extract<MaintenanceOperation, { kind: "handoff" }>>;

/** Grove started it on its own (not a dialog): failures become notices, the chat shows a status bar. */
export function isAutomatic(op: MaintenanceOperation): boolean {
  switch (op.kind) {
    case "compaction":
      return op.reason !== "manual";
    case "handoff":
      return op.reason === "threshold";
    case "branch_summary":
      return false;
  }
}

/** The words before a failure's message: "Auto-compaction failed: …". */
export function failurePrefix(op: MaintenanceOperation): string {
  switch (op.kind) {
    case "compaction":
      if (op.reason === "manual") return "Compaction failed";
      return op.reason === "overflow" ? "Context overflow recovery failed" : "Auto-compaction failed";
    case "branch_summary":
      return "Branch summary failed";
    case "handoff":
      return op.reason === "threshold" ? "Auto-handoff failed" : "Handoff failed";
  }
}
