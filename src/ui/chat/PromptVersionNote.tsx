import { PROMPT_LABELS } from "../../core/prompt-ids";

/** Which version of each prompt wrote a summary (recorded in its details), if it was recorded. */
function promptVersionText(details: unknown): string | null {
  if (typeof details !== "object" || details === null) return null;
  const versions = (details as { promptVersions?: unknown }).promptVersions;
  if (typeof versions !== "object" || versions === null) return null;
  const custom = Object.entries(versions as Record<string, unknown>).filter(
    ([, v]) => typeof v === "string" && v !== "default",
  );
  if (custom.length === 0) return "default prompts";
  const label = (id: string) =>
    Object.hasOwn(PROMPT_LABELS, id) ? PROMPT_LABELS[id as keyof typeof PROMPT_LABELS] : id;
  return `prompts: ${custom.map(([id, v]) => `${label(id)} ${String(v)}`).join(", ")}`;
}

/** The card footer's "written with" note (Settings → Prompts). */
export function PromptVersionNote({ details }: { details: unknown }) {
  const text = promptVersionText(details);
  return text === null ? null : <span className="prompt-version">{text}</span>;
}
