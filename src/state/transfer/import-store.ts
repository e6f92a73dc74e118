/**
 * The import's state (which phase, its progress) and the last import's report, apart from the
 * import code (import.ts, with the transfer worker's client): the app shell reads them on the first
 * screen (is the import dialog open, is there a report to show); the code loads with the first import.
 */

import type { SkippedRecord } from "../../core/export/skipped";
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

/**
 * What the last import did, shown beside the chat until dismissed or the next import: the counts
 * in a sentence, and each conversation of the file that could not be read, with why.
 */
export type ImportReport = { text: string; unreadable: readonly SkippedRecord[] };

export const useImportReportStore = defineStore<{ report: ImportReport | null }>(() => ({ report: null }));

export function dismissImportReport(): void {
  useImportReportStore.setState({ report: null });
}
