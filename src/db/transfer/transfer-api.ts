/** What the transfer worker exposes: the import job's steps, and one export. */
import type { runExport } from "./export-job";
import type { ImportJob } from "./import-job";

export type TransferApi = ImportJob & { runExport: typeof runExport };
