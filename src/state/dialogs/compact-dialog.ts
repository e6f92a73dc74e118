/**
 * The "Compact conversation" dialog's own state: which session (and cut) it is for, and what the
 * last run came back with. Dialog facts, kept apart from the maintenance store; the
 * compaction itself is `compactSession` (state/maintenance/compact.ts), whose progress the dialog reads
 * from `useMaintenanceStore`. A message queued while it ran goes out by itself (queued-message.ts).
 */

import type { EntryId, SessionId } from "../../core/session/ids";
import { cancelMaintenance, compactSession } from "../app/lazy";
import { defineStore } from "../app/store-registry";
import type { CompactResult } from "../maintenance/compact";

export type CompactDialogState = {
  target: { sessionId: SessionId; upToEntryId?: EntryId; upToSnippet?: string } | null;
  /** "form": instructions; "running": the compaction is on; "result": an outcome to explain. */
  phase: "form" | "running" | "result";
  result: Exclude<CompactResult, { kind: "done" } | { kind: "cancelled" }> | null;
  /** The instructions of the run (kept for "Try again"). */
  instructions: string;
};

export const useCompactDialog = defineStore<CompactDialogState>(() => ({
  target: null,
  phase: "form",
  result: null,
  instructions: "",
}));

export function openCompactDialog(sessionId: SessionId, upTo?: { entryId: EntryId; snippet: string }): void {
  useCompactDialog.setState({
    target: { sessionId, upToEntryId: upTo?.entryId, upToSnippet: upTo?.snippet },
    phase: "form",
    result: null,
    instructions: "",
  });
}

/** Closes the dialog; a compaction still running is cancelled (nothing is written). */
export function closeCompactDialog(): void {
  if (useCompactDialog.getState().phase === "running") cancelMaintenance();
  useCompactDialog.setState({ target: null, phase: "form", result: null });
}

/** Runs the manual compaction the dialog is for. Done or cancelled: the dialog closes. */
export async function runCompactDialog(instructions: string): Promise<void> {
  const { target } = useCompactDialog.getState();
  if (!target) return;
  useCompactDialog.setState({ phase: "running", result: null, instructions });
  const result = await compactSession(target.sessionId, {
    reason: "manual",
    instructions: instructions.trim() || undefined,
    upToEntryId: target.upToEntryId,
  });
  // The dialog was closed (and the run cancelled) or reopened for something else meanwhile.
  if (useCompactDialog.getState().target !== target) return;
  if (result.kind === "done" || result.kind === "cancelled") {
    useCompactDialog.setState({ target: null, phase: "form", result: null });
    return;
  }
  useCompactDialog.setState({ phase: "result", result });
}
