/**
 * The one normalized provider interface (DESIGN §7, STYLE §2.1–2.3).
 * Once a stream has started it never throws: failures arrive as a final `error` event carrying the
 * partial reply and an ErrorKind. Every stream ends with exactly one `done` or `error`.
 */

import type { ToolSpec } from "../core/agent/tool-spec";
import type { ThinkingSetting } from "../core/session/chat-params";
import type { LlmContext } from "../core/session/context";
import type {
  AnthropicCompaction,
  ApiKind,
  MessageError,
  ReasoningBlock,
  ServerToolBlock,
  StopReason,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  Usage,
} from "../core/session/entries";
import type { AttachmentData } from "./attachment-data";

/** A provider as the user configured it. Keys live only in the settings table. */
export type ProviderConfig = {
  /** "anthropic", "openai", or a generated id for custom providers. */
  id: string;
  name: string;
  api: ApiKind;
  /** Anthropic: no `/v1` suffix (the SDK adds it). OpenAI-compatible: including `/v1`. */
  baseUrl: string;
  apiKey: string;
  /**
   * The plain http:// origin (non-local) the user confirmed sending this provider's key to
   * unencrypted; requests to any other such origin are refused (endpoint.ts).
   */
  plainHttpOrigin?: string;
  /** Model ids the user typed for this provider (custom providers, local servers). */
  customModels: string[];
  builtIn: boolean;
};

export type StreamRequest = {
  provider: ProviderConfig;
  model: string;
  context: LlmContext;
  maxOutputTokens: number;
  thinking: ThinkingSetting;
  /** The chat's temperature; absent: the provider's default (each adapter says where it is not sent). */
  temperature?: number;
  signal: AbortSignal;
  /**
   * Anthropic only: "Let Claude compact on the server" (`context_management` edit
   * `compact_20260112`), compacting once the input reaches `triggerTokens`. Absent: off.
   */
  serverCompaction?: { triggerTokens: number };
  /**
   * The data of the images and PDFs in `context`, by blob id (attachment-data.ts). An attachment
   * without data here is sent as its name.
   */
  attachments?: AttachmentData;
  /**
   * Tools the model may use (issue 28): function tools, and the provider's own tools where its api
   * has them (tool-support.ts; others are left out of the request). Absent or empty: none. Build the
   * context with `nativeTools` when there are function tools, so earlier steps go as tool messages.
   */
  tools?: readonly ToolSpec[];
};

/** The reply so far. A fresh object is NOT guaranteed per event: consumers copy before storing. */
export type AssistantPartial = {
  /** Tool calls and server tool blocks appear only when the request offered tools. */
  content: Array<TextBlock | ThinkingBlock | ReasoningBlock | ToolCallBlock | ServerToolBlock>;
  providerId: string;
  api: ApiKind;
  model: string;
  usage?: Usage;
  stopReason?: StopReason;
  /** A `compaction` block the provider put in the reply (server-side compaction), verbatim. */
  compaction?: AnthropicCompaction["block"];
};

/**
 * Every event a stream yields. A request that offers tools may also get (pi-ai's `toolcall_*`):
 * - `toolcall_start`: a call began at `partial.content[index]` (name and id known, arguments `{}`);
 * - `toolcall_delta`: more of its arguments' JSON (`args` holds what parses so far);
 * - `toolcall_end`: the call is complete (`toolCall`: its final arguments);
 * - `server_tool`: a provider-run tool's block is complete at `partial.content[index]`.
 * A request without tools never yields those four.
 */
export type StreamEvent =
  | { type: "start"; partial: AssistantPartial }
  | { type: "text_delta"; delta: string; partial: AssistantPartial }
  | { type: "thinking_delta"; delta: string; partial: AssistantPartial }
  | { type: "toolcall_start"; index: number; partial: AssistantPartial }
  | { type: "toolcall_delta"; index: number; delta: string; partial: AssistantPartial }
  | { type: "toolcall_end"; index: number; toolCall: ToolCallBlock; partial: AssistantPartial }
  | { type: "server_tool"; index: number; block: ServerToolBlock; partial: AssistantPartial }
  /** A retryable failure before any content arrived; the stream waits `delayMs`, then tries again. */
  | {
      type: "retry_wait";
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      error: MessageError;
      partial: AssistantPartial;
    }
  | { type: "done"; partial: AssistantPartial }
  | { type: "error"; partial: AssistantPartial; error: MessageError };

/** A reply's stream: the chat's, the summarizer's and the tool loop's (with `tools` in the request). */
export type StreamFn = (req: StreamRequest) => AsyncIterable<StreamEvent>;

export type ListModelsFn = (provider: ProviderConfig, signal: AbortSignal) => Promise<string[]>;
