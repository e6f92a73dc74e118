/**
 * A long chat's whole path arrives in one read (hooks.ts): its rows (display-rows.ts) and every
 * row's height estimate (row-estimate.ts) were made in the render that drew it, one task of
 * 0.1–0.2 s on a 2,000-message path. Here they are made before that render, a chunk per task, and
 * kept: the render then finds them made.
 */
import type { Entry } from "../../core/session/entries";
import { nextTask } from "../../state/app/next-task";
import { runInSlices } from "../../state/app/run-in-slices";
import { type DisplayRow, displayRows, displayRowsSteps } from "./display-rows";
import { estimateEntryHeight, estimateRowHeight, isEstimated } from "./row-estimate";

/** Entries estimated per task. */
const CHUNK = 150;

/** The rows of the last path asked for (the open chat's): a new array of the same entries hits. */
let last: { path: readonly Entry[]; rows: DisplayRow[] } | null = null;

const samePath = (a: readonly Entry[], b: readonly Entry[]) =>
  a === b || (a.length === b.length && a.every((e, i) => e === b[i]));

/** `displayRows(path)`, made once per path (the same entries in the same order). */
export function rowsOf(path: readonly Entry[]): DisplayRow[] {
  if (last && samePath(last.path, path)) return last.rows;
  const rows = displayRows(path);
  last = { path, rows };
  return rows;
}

/** Whether drawing `path` would estimate more entries than one chunk (else it is drawn at once). */
export function needsPreparing(path: readonly Entry[]): boolean {
  let missing = 0;
  for (const entry of path) if (!isEstimated(entry) && ++missing > CHUNK) return true;
  return false;
}

/** Makes `path`'s estimates, a chunk per task, then its rows a few ms per task, yielding to the page between. */
export async function prepareRows(path: readonly Entry[], yieldToPage: () => Promise<void> = nextTask): Promise<void> {
  for (let i = 0; i < path.length; i += CHUNK) {
    await yieldToPage();
    for (let j = i; j < Math.min(path.length, i + CHUNK); j++) {
      const entry = path[j];
      if (entry) estimateEntryHeight(entry);
    }
  }
  // The rows too, a few ms per task (display-rows.ts in steps), kept for the render.
  const rows = await runInSlices(displayRowsSteps(path), { yieldToPage });
  if (rows === undefined) return;
  if (!last || !samePath(last.path, path)) last = { path, rows };
  await yieldToPage();
  // Joined rows are estimated by row (their messages together).
  for (const row of rows) if (row.kind === "entry" && row.continuations.length > 0) estimateRowHeight(row);
}
