/**
 * The one maintenance lock (DESIGN §4.7): the lock IS `useMaintenanceStore.op`, so at most one
 * compaction, branch summary or handoff runs at a time, in any session of this tab. Only the
 * runner (runner.ts) takes it; `abortMaintenance` aborts whichever operation holds it.
 *
 * Check-and-set is synchronous, so two callers in one tab can never both get the lock.
 */
import type { SessionId } from "../../core/session/ids";
import { useMaintenanceStore } from "./maintenance-store";
import { isAutomatic, type MaintenanceOp, type MaintenanceOperation, type ProgressOf } from "./operation";

let controller: AbortController | null = null;

/**
 * Takes the lock for `op` and returns the controller whose signal cancels it, or null when
 * another maintenance operation holds the lock. Release it with `endMaintenance`, in a `finally`.
 */
export function beginMaintenance(sessionId: SessionId, op: MaintenanceOperation, now: number): AbortController | null {
  if (useMaintenanceStore.getState().op) return null;
  const ac = new AbortController();
  controller = ac;
  const running = {
    ...op,
    sessionId,
    automatic: isAutomatic(op),
    progress: { phase: "preparing" },
    text: "",
    startedAt: now,
  } as MaintenanceOp;
  useMaintenanceStore.setState({ op: running });
  return ac;
}

/** Updates the running operation's progress (and the text streaming in); ignored once it has ended. */
export function setMaintenanceProgress<K extends MaintenanceOperation["kind"]>(
  ac: AbortController,
  progress: ProgressOf<K>,
  text?: string,
): void {
  if (controller !== ac) return;
  useMaintenanceStore.setState((s) =>
    s.op ? { op: { ...s.op, progress, text: text ?? s.op.text } as MaintenanceOp } : s,
  );
}

/** Whether `ac` (from `beginMaintenance`) still holds the lock. */
export function holdsMaintenance(ac: AbortController): boolean {
  return controller === ac;
}

/** Releases the lock taken with `ac` (a no-op if `ac` no longer holds it). */
export function endMaintenance(ac: AbortController): void {
  if (controller !== ac) return;
  controller = null;
  useMaintenanceStore.setState({ op: null });
}

/** Aborts the operation holding the lock, if any: its request is aborted, nothing is written. */
export function abortMaintenance(): void {
  controller?.abort();
}
