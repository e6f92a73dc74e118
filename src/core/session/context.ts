/**
 * What the model sees: the output of `buildContext` (DESIGN §3), already normalized for the
 * target provider (adjacent same-role messages merged, user first, foreign thinking dropped, tool
 * blocks as text unless native tools were asked for and the pair is the target's own).
 * Provider adapters only translate this shape to their wire format.
 *
 * Native tool blocks, when present, are complete pairs (tool-pairs.ts): an assistant message's
 * `tool_call`s are each answered by a `tool_result` at the start of the user message right after it,
 * in call order; a server tool's use is followed by its result in the same message. A `tool_result`
 * here carries the text the model is sent (pruned, cut with its note): adapters send it as it is.
 */
import { attachmentLabel } from "../attachments/attachment-text";
import type {
  DocumentBlock,
  ImageBlock,
  ReasoningBlock,
  ServerToolBlock,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
} from "./entries";
import { serverToolText, toolCallText, toolResultText } from "./entry-text";
import type { NativeContextPrefix } from "./native-compaction";

/**
 * An image or a PDF in a user message, by reference: the adapters send its data from
 * `StreamRequest.attachments` (read from the blobs table at the edge, state/), or its name when the
 * data is not there (a summarizer, a model that reads no images).
 */
export type ContextAttachment = ImageBlock | DocumentBlock;
export type ContextUserMessage = { role: "user"; content: Array<TextBlock | ContextAttachment | ToolResultBlock> };
export type ContextAssistantMessage = {
  role: "assistant";
  content: Array<TextBlock | ThinkingBlock | ReasoningBlock | ToolCallBlock | ServerToolBlock>;
};
/** Any block of a context message. */
export type ContextBlock = ContextUserMessage["content"][number] | ContextAssistantMessage["content"][number];
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
 * an attachment by its label (what a text-only reader gets; its data is counted apart), a native tool
 * block by the text it would be sent as elsewhere (what it costs is about the same).
 */
export function contextBlockText(block: ContextBlock): string {
  switch (block.type) {
    case "reasoning":
      return block.summary.join("\n\n");
    case "image":
    case "document":
      return attachmentLabel(block);
    case "tool_call":
      return toolCallText(block.name, block.args);
    case "tool_result":
      return toolResultText(block.text, block.toolName, block.isError);
    case "server_tool":
      return serverToolText(block);
    default:
      return block.text;
  }
}
