/**
 * The agent entries Grove keeps from pi sessions (entries.ts): what each one puts in the context
 * and the words it is shown with. One place, so the context builder, the counters, the transcript
 * and the exports agree. Pure.
 */
import type { CommandEntry, ModelChangeEntry, ThinkingLevelChangeEntry } from "./entries";

/** pi's own text for a `bashExecution` (its `bashExecutionToText`): what pi's model sees, so Grove's sees it too. */
export function commandContextText(e: CommandEntry): string {
  let text = `Ran \`${e.command}\`\n`;
  text += e.output ? `\`\`\`\n${e.output}\n\`\`\`` : "(no output)";
  if (e.cancelled) text += "\n\n(command cancelled)";
  else if (e.exitCode !== null && e.exitCode !== undefined && e.exitCode !== 0) {
    text += `\n\nCommand exited with code ${e.exitCode}`;
  }
  if (e.truncated && e.fullOutputPath) text += `\n\n[Output truncated. Full output: ${e.fullOutputPath}]`;
  return text;
}

/** Whether a command is sent at all: pi's `!!cmd` runs are kept out of the context. */
export const isCommandSent = (e: CommandEntry): boolean => e.excludeFromContext !== true;

/** The one-line marker the chat and the graph show for a setting change. */
export function settingChangeText(e: ModelChangeEntry | ThinkingLevelChangeEntry): string {
  return e.type === "model_change" ? `Model: ${e.modelId} (${e.provider})` : `Thinking: ${e.thinkingLevel}`;
}
