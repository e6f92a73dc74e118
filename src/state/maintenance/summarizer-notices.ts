/**
 * What the worker tells the user after a summary job: today only "Remote summarizer failed: …;
 * used <model> instead" (the remote summarizer fell back to the model). Shown whether the job then
 * succeeded or not: the user should know their summarizer is not being used.
 */
import type { JobNotices } from "../../worker/api";
import { pushNotice } from "../app/ui-store";

export function showSummarizerNotices(outcome: JobNotices): void {
  for (const text of outcome.notices ?? []) pushNotice("error", text);
}
