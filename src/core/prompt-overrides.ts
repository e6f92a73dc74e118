/**
 * User-editable prompts (Settings → Prompts; the browser analog of the seed's compaction hooks):
 * which shipped prompts (prompts/*.md) the user may replace, the override data stored with the
 * settings, and the one precedence rule.
 *
 * Rules:
 * 1. An override whose text is non-blank replaces the shipped prompt; a blank or reset one does not.
 * 2. Every save and every reset bumps the prompt's `version`, so "custom v3" names one text.
 * 3. A summary records which version of its prompt wrote it (`promptLabel`): "default" or "custom vN".
 * Placeholders (`{{conversation}}`…) work in an override as in the shipped prompt.
 *
 * Pure: no I/O.
 */

import { PROMPT_LABELS, type PromptId, type PromptOverride, type PromptOverrides } from "./prompt-ids";
import {
  BRANCH_SUMMARY,
  COMPACTION_FIRST,
  COMPACTION_SHORT,
  COMPACTION_SPLIT_TURN,
  COMPACTION_SUMMARY_CONTEXT,
  COMPACTION_UPDATE,
  HANDOFF_DOCUMENT,
  MEMORY_PROBE_ANSWER,
  MEMORY_PROBE_DRAFT,
  MEMORY_PROBE_GRADE,
} from "./prompts";

export type EditablePrompt = {
  readonly id: PromptId;
  readonly label: string;
  /** Its file in prompts/. */
  readonly file: string;
  readonly description: string;
  readonly shipped: string;
  /** Placeholders the prompt should keep. */
  readonly vars: readonly string[];
};

export const EDITABLE_PROMPTS: readonly EditablePrompt[] = [
  {
    id: "compaction",
    label: PROMPT_LABELS.compaction,
    file: "compaction-first.md",
    description: "A chat's first compaction: summarize the folded conversation.",
    shipped: COMPACTION_FIRST,
    vars: ["conversation", "windowNote", "instructions"],
  },
  {
    id: "update",
    label: PROMPT_LABELS.update,
    file: "compaction-update.md",
    description: "Later compactions: update the previous summary with what came after it.",
    shipped: COMPACTION_UPDATE,
    vars: ["previousSummary", "conversation", "windowNote", "instructions"],
  },
  {
    id: "split-turn",
    label: PROMPT_LABELS["split-turn"],
    file: "compaction-split-turn.md",
    description: "The beginning of a turn the cut fell inside.",
    shipped: COMPACTION_SPLIT_TURN,
    vars: ["conversation", "instructions"],
  },
  {
    id: "short-summary",
    label: PROMPT_LABELS["short-summary"],
    file: "compaction-short.md",
    description: "The one-line summary on the compaction card.",
    shipped: COMPACTION_SHORT,
    vars: ["summary", "instructions"],
  },
  {
    id: "branch-summary",
    label: PROMPT_LABELS["branch-summary"],
    file: "branch-summary.md",
    description: "Summary of a branch you leave (without custom instructions).",
    shipped: BRANCH_SUMMARY,
    vars: ["conversation", "omittedNote"],
  },
  {
    id: "handoff",
    label: PROMPT_LABELS.handoff,
    file: "handoff-document.md",
    description: "The request for a handoff document to a new chat.",
    shipped: HANDOFF_DOCUMENT,
    vars: ["focus"],
  },
  {
    id: "framing",
    label: PROMPT_LABELS.framing,
    file: "compaction-summary-context.md",
    description: "How a compaction summary is handed to the model (recorded on each new compaction).",
    shipped: COMPACTION_SUMMARY_CONTEXT,
    vars: ["keptUserTurns", "summary"],
  },
  {
    id: "probe-draft",
    label: PROMPT_LABELS["probe-draft"],
    file: "memory-probe-draft.md",
    description:
      "Check memory: the summary model drafts questions about what a compaction folded, each with its exact source words.",
    shipped: MEMORY_PROBE_DRAFT,
    vars: ["count", "sources"],
  },
  {
    id: "probe-answer",
    label: PROMPT_LABELS["probe-answer"],
    file: "memory-probe-answer.md",
    description: "Check memory: each question as it is added, as the last message, to the chat's next request.",
    shipped: MEMORY_PROBE_ANSWER,
    vars: ["question"],
  },
  {
    id: "probe-grade",
    label: PROMPT_LABELS["probe-grade"],
    file: "memory-probe-grade.md",
    description:
      "Check memory: whether an answer states the source fact (asked only when the exact words are not in it).",
    shipped: MEMORY_PROBE_GRADE,
    vars: ["span", "question", "answer"],
  },
];

/** The text of each overridden prompt (rule 1), what a job carries to the worker. */
export type PromptTexts = Readonly<Partial<Record<PromptId, string>>>;

function activeText(o: PromptOverride | undefined): string | null {
  return o?.text != null && o.text.trim() !== "" ? o.text.trim() : null;
}

/** Rule 1: the prompt in force for `id`. */
export function resolvePrompt(id: PromptId, overrides: PromptOverrides | undefined): string {
  return activeText(overrides?.[id]) ?? shippedPrompt(id);
}

function shippedPrompt(id: PromptId): string {
  return EDITABLE_PROMPTS.find((p) => p.id === id)?.shipped ?? "";
}

/** Whether `id` is changed from the shipped prompt. */
export function isCustomized(id: PromptId, overrides: PromptOverrides | undefined): boolean {
  return activeText(overrides?.[id]) !== null;
}

/** Rule 3. */
export function promptLabel(id: PromptId, overrides: PromptOverrides | undefined): string {
  const o = overrides?.[id];
  return isCustomized(id, overrides) && o ? `custom v${o.version}` : "default";
}

/** The overridden texts only (the shipped ones need no carrying). */
export function promptTexts(overrides: PromptOverrides | undefined): PromptTexts {
  const out: Partial<Record<PromptId, string>> = {};
  for (const p of EDITABLE_PROMPTS) {
    const t = activeText(overrides?.[p.id]);
    if (t !== null) out[p.id] = t;
  }
  return out;
}

/** Rule 2: `overrides` with `id` saved as `text` (a text equal to the shipped one is a reset). */
export function withPromptText(overrides: PromptOverrides, id: PromptId, text: string): PromptOverrides {
  const version = (overrides[id]?.version ?? 0) + 1;
  const t = text.trim() === "" || text.trim() === shippedPrompt(id) ? null : text;
  return { ...overrides, [id]: { text: t, version } };
}

/** Rule 2: `overrides` with `id` reset to the shipped prompt. */
export function withPromptReset(overrides: PromptOverrides, id: PromptId): PromptOverrides {
  if (!overrides[id]) return overrides;
  return { ...overrides, [id]: { text: null, version: (overrides[id]?.version ?? 0) + 1 } };
}
