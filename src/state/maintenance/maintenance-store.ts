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
