/**
 * What a maintenance job carries of Settings → Prompts: the overridden texts, and the version of
 * each prompt the job may use, so the entry it writes records which prompt version wrote it.
 */

import type { PromptId, PromptOverrides } from "../../core/prompt-ids";
import { promptLabel, promptTexts } from "../../core/prompt-overrides";

export type PromptsJob = { prompts: Partial<Record<PromptId, string>>; promptVersions: Record<string, string> };

function jobFor(ids: readonly PromptId[], overrides: PromptOverrides | undefined): PromptsJob {
  const texts = promptTexts(overrides);
  const prompts: Partial<Record<PromptId, string>> = {};
  const promptVersions: Record<string, string> = {};
  for (const id of ids) {
    const t = texts[id];
    if (t !== undefined) prompts[id] = t;
    promptVersions[id] = promptLabel(id, overrides);
  }
  return { prompts, promptVersions };
}

const COMPACTION_PROMPT_IDS: readonly PromptId[] = ["compaction", "update", "split-turn", "short-summary", "framing"];

export const compactionPromptsJob = (overrides: PromptOverrides | undefined): PromptsJob =>
  jobFor(COMPACTION_PROMPT_IDS, overrides);

export const branchPromptsJob = (overrides: PromptOverrides | undefined): PromptsJob =>
  jobFor(["branch-summary"], overrides);

/** The handoff request (its document is a handoff entry, which records no version). */
export function handoffPromptJob(overrides: PromptOverrides | undefined): { prompt?: string } {
  const t = promptTexts(overrides).handoff;
  return t !== undefined ? { prompt: t } : {};
}
