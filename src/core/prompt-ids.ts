/**
 * Which shipped prompts the user may replace, their names, and the override data stored with the
 * settings: apart from the prompt texts (prompt-overrides.ts), so the settings model, read on the
 * first screen, does not carry every shipped prompt. Pure: no I/O.
 */

/** Every editable prompt by its name in the UI (Settings → Prompts, a summary's "written with" note). */
export const PROMPT_LABELS = {
  compaction: "Compaction",
  update: "Compaction update",
  "split-turn": "Split turn",
  "short-summary": "Short summary",
  "branch-summary": "Branch summary",
  handoff: "Handoff",
  framing: "Framing",
  "probe-draft": "Memory check questions",
  "probe-answer": "Memory check question to the chat",
  "probe-grade": "Memory check grading",
} as const;

export type PromptId = keyof typeof PROMPT_LABELS;

export type PromptOverride = {
  /** null: reset to the shipped prompt. */
  readonly text: string | null;
  readonly version: number;
};

export type PromptOverrides = Readonly<Partial<Record<PromptId, PromptOverride>>>;

const PROMPT_IDS = new Set<string>(Object.keys(PROMPT_LABELS));

/** Stored settings → overrides, dropping anything malformed or unknown (another app version). */
export function promptOverridesFrom(value: unknown): PromptOverrides {
  if (typeof value !== "object" || value === null) return {};
  const out: Partial<Record<PromptId, PromptOverride>> = {};
  for (const [id, o] of Object.entries(value as Record<string, unknown>)) {
    if (!PROMPT_IDS.has(id) || typeof o !== "object" || o === null) continue;
    const { text, version } = o as Record<string, unknown>;
    if (typeof version !== "number" || !(typeof text === "string" || text === null)) continue;
    out[id as PromptId] = { text, version };
  }
  return out;
}
