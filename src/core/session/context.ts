/**
 * What the model sees: the output of `buildContext` (DESIGN §3), already normalized for the
 * target provider (adjacent same-role messages merged, user first, tool blocks as text, foreign
 * thinking dropped). Provider adapters only translate this shape to their wire format.
 */
import { attachmentLabel } from "../attachments/attachment-text";
import type { DocumentBlock, ImageBlock, ReasoningBlock, TextBlock, ThinkingBlock } from "./entries";
import type { NativeContextPrefix } from "./native-compaction";

/**
 * An image or a PDF in a user message, by reference: the adapters send its data from
 * `StreamRequest.attachments` (read from the blobs table at the edge, state/), or its name when the
 * data is not there (a summarizer, a model that reads no images).
 */
export type ContextAttachment = ImageBlock | DocumentBlock;
export type ContextUserMessage = { role: "user"; content: Array<TextBlock | ContextAttachment> };
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

/**
 * A context block's visible text: a reasoning item by its summary (its encrypted content is opaque),
 * an attachment by its label (what a text-only reader gets; its data is counted apart).
 */
export function contextBlockText(block: TextBlock | ThinkingBlock | ReasoningBlock | ContextAttachment): string {
  switch (block.type) {
    case "reasoning":
      return block.summary.join("\n\n");
    case "image":
    case "document":
      return attachmentLabel(block);
    default:
      return block.text;
  }
}
