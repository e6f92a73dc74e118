/**
 * Turning what the branch summarizer returned into the stored `branch_summary` (DESIGN §5): the
 * output is cleaned the way compaction output is (echoed framing, prompt tags, tail blocks), our
 * own branch framing echoed back is removed too, and the short preamble
 * (prompts/branch-summary-preamble.md: the user explored another branch and came back) is put
 * first. Empty or junk output (no prose at all, e.g. only headings) is a failure: nothing is written.
 *
 * Pure: no I/O.
 */

import { cleanSummarizerOutput } from "../compaction/digest";
import { withFileOpsTags } from "../compaction/file-ops";
import { BRANCH_SUMMARY_CONTEXT, BRANCH_SUMMARY_PREAMBLE } from "../prompts";
import type { BranchSummaryEntry } from "../session/entries";
import type { BranchSummaryPlan } from "./prepare";

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A literal phrase matched with any whitespace between its words, case-insensitively. */
const phrase = (s: string): RegExp => new RegExp(s.trim().split(/\s+/).map(escapeRegExp).join("\\s+"), "gi");

/** Paragraphs of a template without placeholders: the fixed text a model might echo back. */
function fixedParagraphs(template: string): string[] {
  return template
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "" && !p.includes("{{"));
}

/** Removes every occurrence of each fixed paragraph of `templates` from `text`. */
export function stripEchoes(text: string, templates: readonly string[]): string {
  let out = text;
  for (const p of templates.flatMap(fixedParagraphs)) out = out.replace(phrase(p), "");
  return out;
}

const tidy = (text: string): string =>
  text
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/**
 * A lead-in line before the first heading ("Here is the summary:", "Sure! Below is …:"), which
 * the prompts forbid but models write anyway. Only a single short line ending in a colon goes.
 */
const LEAD_IN = /^[^\n#]{0,160}:[ \t]*\n+(?=#{1,6}[ \t])/;

export function stripLeadIn(text: string): string {
  return text.replace(LEAD_IN, "");
}

/**
 * Whether `text` has prose: a letter or digit outside Markdown headings. Output without any
 * (empty, whitespace, punctuation, headings only) is junk.
 */
export function hasProse(text: string): boolean {
  const body = text
    .split("\n")
    .filter((line) => !/^\s*#{1,6}(\s|$)/.test(line))
    .join("\n");
  return /[\p{L}\p{N}]/u.test(body);
}

const BRANCH_TAGS = /<\/?branch_summary\b[^<>]*>/gi;

export type BranchSummaryFinish = { kind: "summary"; summary: string } | { kind: "failed"; error: string };

/**
 * The summary to store: the preamble, a blank line, then the cleaned summarizer output.
 * `failed` when nothing usable is left.
 */
export function finishBranchSummary(text: string): BranchSummaryFinish {
  let out = typeof text === "string" ? text : "";
  out = cleanSummarizerOutput(out);
  out = stripEchoes(out, [BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_CONTEXT]);
  out = tidy(stripLeadIn(tidy(out.replace(BRANCH_TAGS, ""))));
  if (!hasProse(out)) return { kind: "failed", error: "The summarizer returned an empty branch summary." };
  return { kind: "summary", summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${out}` };
}

/** What the engine records in `BranchSummaryEntry.details` (for the card and for debugging). */
type BranchSummaryDetails = {
  readonly kind: "grove-branch-summary";
  readonly version: 1;
  readonly includedEntries: number;
  readonly omittedEntries: number;
  readonly coveredEntries: number;
  readonly transcriptTokens: number;
  readonly branchTokens: number;
  readonly durationMs: number;
  /** Cumulative file operations (compaction/file-ops.ts), also appended to `summary` as tags. */
  readonly readFiles?: readonly string[];
  readonly modifiedFiles?: readonly string[];
  /** The version of the prompt that wrote it ("default", "custom v2"): Settings → Prompts. */
  readonly promptVersions?: Readonly<Record<string, string>>;
};

/** The entry the caller appends as a child of the new position (it adds id, sessionId, parentId, createdAt). */
export type NewBranchSummaryEntry = Omit<BranchSummaryEntry, "id" | "sessionId" | "parentId" | "createdAt">;

export type BranchSummaryOutcome =
  | { kind: "done"; entry: NewBranchSummaryEntry }
  | { kind: "nothing_to_summarize"; reason: string }
  | { kind: "failed"; error: string }
  | { kind: "cancelled" };

/** The entry for a finished summary of `plan`. */
export function branchSummaryEntry(
  plan: BranchSummaryPlan,
  summary: string,
  opts: { durationMs?: number; promptVersions?: Readonly<Record<string, string>> } = {},
): NewBranchSummaryEntry {
  const details: BranchSummaryDetails = {
    kind: "grove-branch-summary",
    version: 1,
    includedEntries: plan.includedEntries,
    omittedEntries: plan.omittedEntries,
    coveredEntries: plan.coveredEntries,
    transcriptTokens: plan.transcriptTokens,
    branchTokens: plan.branchTokens,
    durationMs: Math.max(0, opts.durationMs ?? 0),
    ...(plan.fileOps.readFiles.length + plan.fileOps.modifiedFiles.length > 0 ? plan.fileOps : {}),
    ...(opts.promptVersions ? { promptVersions: opts.promptVersions } : {}),
  };
  return {
    type: "branch_summary",
    fromId: plan.fromId,
    summary: withFileOpsTags(summary, plan.fileOps),
    ...(plan.instructions !== null ? { instructions: plan.instructions } : {}),
    model: plan.model,
    details,
  };
}
