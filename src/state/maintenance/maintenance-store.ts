/**
 * Maintenance facts: the operation holding the one lock (DESIGN §4.7; lock.ts takes and releases
 * it), and the chats whose automatic compaction is paused.
 */
import { defineStore } from "../app/store-registry";
import type { MaintenanceOp } from "./operation";

type MaintenanceState = {
  op: MaintenanceOp | null;
  /** Sessions whose automatic compaction is paused (a compaction did not make enough room), with the warning. */
  paused: Record<string, string>;
};

export const useMaintenanceStore = defineStore<MaintenanceState>(() => ({ op: null, paused: {} }));

/** Lifts the pause on a chat's automatic compaction (a manual compaction, a model change, Redo). */
export function liftPause(sessionId: string): void {
  useMaintenanceStore.setState((s) => {
    const { [sessionId]: _was, ...rest } = s.paused;
    return { paused: rest };
  });
}
