/**
 * File-operation context (seed 002 "file-operation context in summaries"): which files the
 * conversation read and which it changed, from the assistant's tool calls, carried across
 * compactions and branch summaries so a summary never forgets a file the work touched.
 *
 * Rules:
 * 1. `read(path)` → read; `write(path)` / `edit(path)` → modified. The path is the call's `path`
 *    (or `file_path`) argument; calls without one add nothing.
 * 2. Cumulative: a compaction or branch summary among the entries adds the sets stored on it
 *    (`details.readFiles` / `details.modifiedFiles`: Grove's and pi's own field names), unless
 *    an extension wrote it (pi's `fromExtension`).
 * 3. Modified wins: a file both read and modified is listed as modified only.
 * 4. The tags appended to a summary: `<read-files>` and `<modified-files>`, one path a line, in
 *    first-seen order; an empty set writes no tag.
 *
 * Pure: no I/O.
 */
import type { Entry } from "../session/entries";

export type FileOps = { readonly readFiles: readonly string[]; readonly modifiedFiles: readonly string[] };

export const NO_FILE_OPS: FileOps = { readFiles: [], modifiedFiles: [] };

const READ_TOOLS = new Set(["read"]);
const MODIFY_TOOLS = new Set(["write", "edit"]);

function pathArg(args: unknown): string | null {
  if (typeof args !== "object" || args === null) return null;
  const a = args as Record<string, unknown>;
  const p = a.path ?? a.file_path;
  return typeof p === "string" && p.trim() !== "" ? p : null;
}

/** The sets stored on a compaction or branch summary (rule 2), if any. */
export function storedFileOps(details: unknown): FileOps | null {
  if (typeof details !== "object" || details === null) return null;
  const d = details as Record<string, unknown>;
  if (d.fromExtension === true) return null;
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const readFiles = list(d.readFiles);
  const modifiedFiles = list(d.modifiedFiles);
  return readFiles.length + modifiedFiles.length > 0 ? { readFiles, modifiedFiles } : null;
}

/** The cumulative sets of `entries` (rules 1–3), in first-seen order. */
export function collectFileOps(entries: readonly Entry[]): FileOps {
  const read = new Set<string>();
  const modified = new Set<string>();
  const add = (ops: FileOps): void => {
    for (const f of ops.readFiles) read.add(f);
    for (const f of ops.modifiedFiles) modified.add(f);
  };
  for (const e of entries) {
    if (e.type === "compaction" || e.type === "branch_summary") {
      const stored = storedFileOps(e.details);
      if (stored) add(stored);
      continue;
    }
    if (e.type !== "message" || e.role !== "assistant") continue;
    for (const b of e.content) {
      if (b.type !== "tool_call") continue;
      const name = b.name.toLowerCase();
      const path = pathArg(b.args);
      if (path === null) continue;
      if (READ_TOOLS.has(name)) read.add(path);
      else if (MODIFY_TOOLS.has(name)) modified.add(path);
    }
  }
  return { readFiles: [...read].filter((f) => !modified.has(f)), modifiedFiles: [...modified] };
}

/** Rule 4: the tags for `ops` ("" when both sets are empty). */
export function fileOpsTags(ops: FileOps): string {
  const parts: string[] = [];
  if (ops.readFiles.length > 0) parts.push(`<read-files>\n${ops.readFiles.join("\n")}\n</read-files>`);
  if (ops.modifiedFiles.length > 0) parts.push(`<modified-files>\n${ops.modifiedFiles.join("\n")}\n</modified-files>`);
  return parts.join("\n");
}

/** `summary` with the tags for `ops` appended after a blank line (as it is when they are empty). */
export function withFileOpsTags(summary: string, ops: FileOps): string {
  const tags = fileOpsTags(ops);
  return tags === "" ? summary : `${summary.trimEnd()}\n\n${tags}`;
}

const TAG_BLOCKS = /<(read-files|modified-files)>[\s\S]*?<\/\1>\s*/g;

/**
 * `text` without file-ops tag blocks: a previous summary's (and a summarizer's echo of them) go,
 * so each summary ends in exactly one current set.
 */
export function stripFileOpsTags(text: string): string {
  return text.replace(TAG_BLOCKS, "").trimEnd();
}
