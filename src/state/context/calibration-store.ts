/**
 * The Claude estimate's calibration table (core/tokens/claude-estimate.ts), per model id. Its own
 * store, not a field of the settings: it changes after every Claude reply (calibration.ts learns
 * it), and the many components that read the settings need not re-render for it. Kept in the
 * settings table under its own key (app/boot.ts reads it from there).
 */
import type { CalibrationTable } from "../../core/tokens/claude-estimate";
import { defineStore } from "../app/store-registry";

/** Its row in the settings table. */
export const CALIBRATION_KEY = "calibration";

export const useCalibrationStore = defineStore<{ table: CalibrationTable }>(() => ({ table: {} }));

/** The stored row as a table (none yet: empty). */
export function calibrationFromRow(value: unknown): CalibrationTable {
  return typeof value === "object" && value !== null ? (value as CalibrationTable) : {};
}
