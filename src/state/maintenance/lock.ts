/**
 * The one maintenance lock (DESIGN §4.7) as used by branch summaries and handoffs: the lock IS
 * `useMaintenanceStore.op`, taken by compaction (compact.ts) through these same functions, so at
 * most one compaction, branch summary or handoff runs at a time, in any session of this tab.
 * `cancelMaintenance` (compact.ts) aborts whichever of them is running, through `abortMaintenance`.
 *
 * Check-and-set is synchronous, so two callers in one tab can never both get the lock.
 */
import { type MaintenanceOp, type MaintenanceProgress, useMaintenanceStore } from "../stores";

let controller: AbortController | null = null;

export type MaintenanceStart = Pick<MaintenanceOp, "sessionId" | "kind" | "reason" | "automatic">;

/**
 * Takes the lock for `op` and returns the controller whose signal cancels it, or null when
 * another maintenance operation holds the lock. Release it with `endMaintenance`, in a `finally`.
 */
export function beginMaintenance(op: MaintenanceStart, now: number = Date.now()): AbortController | null {
  if (useMaintenanceStore.getState().op) return null;
  const ac = new AbortController();
  controller = ac;
  useMaintenanceStore.setState({ op: { ...op, progress: { phase: "preparing" }, text: "", startedAt: now } });
  return ac;
}

/** Updates the running operation's progress (and the text streaming in); ignored once it has ended. */
export function setMaintenanceProgress(ac: AbortController, progress: MaintenanceProgress, text?: string): void {
  if (controller !== ac) return;
  useMaintenanceStore.setState((s) => (s.op ? { op: { ...s.op, progress, text: text ?? s.op.text } } : s));
}

/** Releases the lock taken with `ac` (a no-op if `ac` no longer holds it). */
export function endMaintenance(ac: AbortController): void {
  if (controller !== ac) return;
  controller = null;
  useMaintenanceStore.setState({ op: null });
}

/** Aborts the branch summary or handoff holding the lock, if any: its request is aborted, nothing is written. */
export function abortMaintenance(): void {
  controller?.abort();
}
