/**
 * File-operation context (seed 002 "file-operation context in summaries"): which files the
 * conversation read and which it changed, from the assistant's tool calls, carried across
 * compactions and branch summaries so a summary never forgets a file the work touched.
 *
 * Rules:
 * 1. Reading tools → read; writing and editing tools → modified: pi's `read` / `write` / `edit`, the
 *    MCP filesystem servers' `read_file`, `read_text_file`, `read_multiple_files`, `write_file`,
 *    `edit_file`, `create_file`, `move_file` and the common aliases below, whatever server prefix a
 *    client put before the name (`files__read_file`, `mcp.files.read_file`, `files/read_file`). The
 *    paths are the call's `path` / `file_path` / `filePath` / `filename` argument, each of `paths`,
 *    and for a move both `source` and `destination`; calls without one add nothing. A provider's MCP
 *    connector call (a server tool block) counts like a call of the same name.
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

const READ_TOOLS = new Set([
  "read",
  "read_file",
  "readfile",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "get_file_contents",
  "view",
  "view_file",
  "open_file",
  "cat",
]);
const MODIFY_TOOLS = new Set([
  "write",
  "edit",
  "write_file",
  "writefile",
  "edit_file",
  "create_file",
  "append_file",
  "replace_in_file",
  "str_replace",
  "multi_edit",
  "multiedit",
  "move_file",
  "delete_file",
  "apply_patch",
]);

/** A tool's name without the server prefix a client put before it, lower-cased. */
function baseToolName(name: string): string {
  const lower = name.toLowerCase();
  const parts = lower.split(/__|[.:/]/);
  return parts[parts.length - 1] ?? lower;
}

const nonBlank = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** The paths a call names (rule 1). */
function pathArgs(args: unknown): string[] {
  if (typeof args !== "object" || args === null) return [];
  const a = args as Record<string, unknown>;
  const one = [a.path, a.file_path, a.filePath, a.filename, a.source, a.destination].filter(nonBlank);
  const many = Array.isArray(a.paths) ? a.paths.filter(nonBlank) : [];
  return [...new Set([...one, ...many])];
}

/** Whether a tool name reads, modifies, or neither. */
function fileOpOf(name: string): "read" | "modified" | null {
  const base = baseToolName(name);
  return READ_TOOLS.has(base) ? "read" : MODIFY_TOOLS.has(base) ? "modified" : null;
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
      // A provider's MCP connector call carries its input on the use (or the Responses item).
      const call =
        b.type === "tool_call"
          ? { name: b.name, args: b.args }
          : b.type === "server_tool" && b.tool === "mcp" && b.part !== "result"
            ? { name: b.name, args: b.input }
            : null;
      if (call === null) continue;
      const op = fileOpOf(call.name);
      if (op === null) continue;
      for (const path of pathArgs(call.args)) (op === "read" ? read : modified).add(path);
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
