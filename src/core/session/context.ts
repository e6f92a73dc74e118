/**
 * What the model sees: the output of `buildContext` (DESIGN §3), already normalized for the
 * target provider (adjacent same-role messages merged, user first, tool blocks as text, foreign
 * thinking dropped). Provider adapters only translate this shape to their wire format.
 */
import type { ReasoningBlock, TextBlock, ThinkingBlock } from "./entries";
import type { NativeContextPrefix } from "./native-compaction";

export type ContextUserMessage = { role: "user"; content: TextBlock[] };
export type ContextAssistantMessage = {
  role: "assistant";
  content: Array<TextBlock | ThinkingBlock | ReasoningBlock>;
};
export type ContextMessage = ContextUserMessage | ContextAssistantMessage;

export type LlmContext = {
  /** Empty string = no system prompt. */
  system: string;
  messages: ContextMessage[];
  /**
   * A provider-native compaction sent verbatim before `messages` (native-compaction.ts): only ever
   * set for the provider that made it. Absent otherwise.
   */
  native?: NativeContextPrefix;
};

/** A context block's visible text: a reasoning item by its summary (its encrypted content is opaque). */
export function contextBlockText(block: TextBlock | ThinkingBlock | ReasoningBlock): string {
  return block.type === "reasoning" ? block.summary.join("\n\n") : block.text;
}
