/**
 * The import's state (which phase, its progress), apart from the import code (import.ts, with the
 * transfer worker's client): the app shell reads it on the first screen to know whether the import
 * dialog is open; the code loads with the first import.
 */

import type { ImportAnalysis, ImportProgress } from "../../db/transfer/import-job";
import { defineStore } from "../app/store-registry";

type Ready = Extract<ImportAnalysis, { kind: "ready" }>;

export type ImportState =
  | { phase: "idle" }
  | { phase: "reading"; fileName: string; progress: ImportProgress | null }
  | { phase: "confirm"; fileName: string; analysis: Ready }
  | { phase: "writing"; fileName: string; progress: ImportProgress | null }
  | { phase: "error"; fileName: string; message: string };

export const useImportStore = defineStore<ImportState>(() => ({ phase: "idle" }));
