/**
 * Anthropic Messages adapter over `@anthropic-ai/sdk` (DESIGN §7).
 *
 * Contract (STYLE §2.2): the iterable never throws. It yields `start`, then deltas carrying the
 * partial, then exactly one `done` or `error`. Everything after `start` runs inside one try/catch
 * that turns any failure into an `error` event keeping the partial reply.
 *
 * Does not retry (withRetry does) and does not decide what the model sees (buildContext does):
 * it only translates `LlmContext` to the wire format and raw stream events back. Tools (definitions,
 * tool blocks both ways) are translated in anthropic-tools.ts.
 */
import type {
  StopReason as AnthropicStopReason,
  Usage as AnthropicUsage,
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { attachmentLabel } from "../core/attachments/attachment-text";
import type { LlmContext } from "../core/session/context";
import type { StopReason, TextBlock, ThinkingBlock, Usage } from "../core/session/entries";
import { makeAnthropicClient } from "./anthropic-client";
import { applyCompactionEvent } from "./anthropic-compaction-events";
import {
  AnthropicToolBlocks,
  anthropicToolParams,
  citationOf,
  serverToolParam,
  toolResultParam,
  toolUseParam,
} from "./anthropic-tools";
import { type AttachmentData, type ResolvedAttachment, resolveAttachment } from "./attachment-data";
import { abortedError, classifyError, StreamEndedError } from "./classify-error";
import type { ClientDeps } from "./client-config";
import { anthropicNativeHeaders, anthropicServerCompaction, withAnthropicCompactionBlock } from "./native-prefix";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "./types";

const API = "anthropic-messages" as const;

/** Anthropic rejects a thinking budget below this. */
const ANTHROPIC_MIN_THINKING_BUDGET_TOKENS = 1024;
/**
 * `max_tokens` must exceed `budget_tokens`; when the caller's output limit does not, the limit is
 * raised to budget + this much, so there is still room for the answer after the thinking.
 */
const ANTHROPIC_ANSWER_HEADROOM_TOKENS = 1024;

/** The adapter with injectable dependencies (tests pass a fake `fetch`). */
export function createAnthropicStream(deps: ClientDeps = {}): StreamFn {
  return (req) => run(req, deps);
}

export const streamAnthropic: StreamFn = createAnthropicStream();

/** Request options: the betas its compaction material, server compaction and MCP connector need. */
function requestHeaders(req: StreamRequest): { headers?: Record<string, string> } {
  const native = anthropicNativeHeaders(req.context, req.serverCompaction).headers?.["anthropic-beta"];
  const betas = [...(native ? [native] : []), ...anthropicToolParams(req.tools).betas];
  return betas.length > 0 ? { headers: { "anthropic-beta": betas.join(",") } } : {};
}

async function* run(req: StreamRequest, deps: ClientDeps): AsyncGenerator<StreamEvent> {
  const partial: AssistantPartial = { content: [], providerId: req.provider.id, api: API, model: req.model };
  yield { type: "start", partial };

  try {
    const client = makeAnthropicClient(req.provider, deps);
    const stream = await client.messages.create(buildParams(req), { signal: req.signal, ...requestHeaders(req) });

    // The wire's block index -> our block (tool blocks are tracked by `tools`).
    const blocks = new Map<number, TextBlock | ThinkingBlock>();
    const tools = new AnthropicToolBlocks(partial, req.provider.id);
    let finished = false;

    for await (const event of stream) {
      const out = applyEvent(event, partial, blocks, tools);
      if (out === "stop") finished = true;
      else if (out) yield out;
    }

    // The SDK ends iteration quietly when its signal aborts mid-body; a body that closes without
    // `message_stop` is a dropped connection, not a finished reply.
    if (!finished) {
      if (!req.signal.aborted) throw new StreamEndedError();
      partial.stopReason = "aborted";
      yield { type: "error", partial, error: abortedError() };
      return;
    }

    partial.stopReason ??= "end";
    yield { type: "done", partial };
  } catch (err) {
    const error = req.signal.aborted ? abortedError() : classifyError(err, API);
    partial.stopReason = error.kind === "aborted" ? "aborted" : "error";
    yield { type: "error", partial, error };
  }
}

/** Applies one raw event to the partial; returns the event to yield, "stop" at message_stop, or null. */
function applyEvent(
  event: RawMessageStreamEvent,
  partial: AssistantPartial,
  blocks: Map<number, TextBlock | ThinkingBlock>,
  tools: AnthropicToolBlocks,
): StreamEvent | "stop" | null {
  if (applyCompactionEvent(event, partial)) return null;
  switch (event.type) {
    case "message_start":
      partial.usage = mapUsage(event.message.usage);
      return null;

    case "content_block_start": {
      const cb = event.content_block;
      if (cb.type === "text") {
        const block: TextBlock = { type: "text", text: cb.text };
        blocks.set(event.index, block);
        partial.content.push(block);
        return cb.text ? { type: "text_delta", delta: cb.text, partial } : null;
      }
      if (cb.type === "thinking") {
        // signedBy is set when the signature arrives: a block cut off before it is not replayable.
        const block: ThinkingBlock = { type: "thinking", text: cb.thinking };
        if (cb.signature) Object.assign(block, { signature: cb.signature, signedBy: API });
        blocks.set(event.index, block);
        partial.content.push(block);
        return cb.thinking ? { type: "thinking_delta", delta: cb.thinking, partial } : null;
      }
      if (cb.type === "redacted_thinking") {
        const block: ThinkingBlock = { type: "thinking", text: "", redactedData: cb.data, signedBy: API };
        blocks.set(event.index, block);
        partial.content.push(block);
        return null;
      }
      // tool_use, server tool uses and results (a request without tools gets none).
      return tools.start(event);
    }

    case "content_block_delta": {
      const block = blocks.get(event.index);
      const d = event.delta;
      if (d.type === "input_json_delta") return tools.inputDelta(event.index, d.partial_json);
      if (!block) return null;
      if (d.type === "text_delta" && block.type === "text") {
        block.text += d.text;
        return { type: "text_delta", delta: d.text, partial };
      }
      if (d.type === "thinking_delta" && block.type === "thinking") {
        block.text += d.thinking;
        return { type: "thinking_delta", delta: d.thinking, partial };
      }
      if (d.type === "signature_delta" && block.type === "thinking") {
        block.signature = (block.signature ?? "") + d.signature;
        block.signedBy = API;
        return null;
      }
      if (d.type === "citations_delta" && block.type === "text") {
        const citation = citationOf(d.citation);
        if (citation) block.citations = [...(block.citations ?? []), citation];
      }
      return null;
    }

    case "content_block_stop":
      return tools.stop(event.index);

    case "message_delta": {
      if (event.delta.stop_reason) partial.stopReason = mapStopReason(event.delta.stop_reason);
      // message_delta usage is cumulative; input counts are present only when they changed.
      const u = event.usage;
      const prev = partial.usage ?? { input: 0, output: 0 };
      const cacheRead = u.cache_read_input_tokens ?? prev.cacheRead;
      const cacheWrite = u.cache_creation_input_tokens ?? prev.cacheWrite;
      const input =
        u.input_tokens != null || u.cache_read_input_tokens != null || u.cache_creation_input_tokens != null
          ? (u.input_tokens ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0)
          : prev.input;
      partial.usage = compactUsage({ input, output: u.output_tokens, cacheRead, cacheWrite });
      return null;
    }

    case "message_stop":
      return "stop";

    default: {
      // Exhaustive over the SDK's union; a newer server event type is ignored at runtime.
      const unknown: never = event;
      void unknown;
      return null;
    }
  }
}

function mapUsage(u: AnthropicUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? undefined;
  const cacheWrite = u.cache_creation_input_tokens ?? undefined;
  return compactUsage({
    input: u.input_tokens + (cacheRead ?? 0) + (cacheWrite ?? 0),
    output: u.output_tokens,
    cacheRead,
    cacheWrite,
  });
}

function compactUsage(u: Usage): Usage {
  const out: Usage = { input: u.input, output: u.output };
  if (u.cacheRead) out.cacheRead = u.cacheRead;
  if (u.cacheWrite) out.cacheWrite = u.cacheWrite;
  return out;
}

function mapStopReason(reason: AnthropicStopReason): StopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "end";
    // A server tool paused a long turn: the reply is not finished, sending it back resumes it (the
    // tool loop continues a "tool_use" step without calls that way).
    case "pause_turn":
      return "tool_use";
    case "max_tokens":
    // The model filled the context window while writing: the reply was cut short, like max_tokens.
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_use";
    case "refusal":
      return "refusal";
    default: {
      const unknown: never = reason;
      void unknown;
      return "end";
    }
  }
}

export function buildParams(req: StreamRequest): MessageCreateParamsStreaming {
  const tools = anthropicToolParams(req.tools);
  const params: MessageCreateParamsStreaming = {
    model: req.model,
    max_tokens: req.maxOutputTokens,
    messages: withAnthropicCompactionBlock(req.context, convertMessages(req.context, req.attachments)),
    stream: true,
    // Not in the stable SDK's params type: beta body fields, sent as they are.
    ...(anthropicServerCompaction(req.serverCompaction) as object),
    ...(tools.mcpServers.length > 0 ? ({ mcp_servers: tools.mcpServers } as object) : {}),
  };
  if (tools.tools.length > 0) params.tools = tools.tools as MessageCreateParamsStreaming["tools"];
  if (req.context.system.trim()) params.system = req.context.system;
  if (req.thinking.kind === "anthropic-budget") {
    const budget = Math.max(ANTHROPIC_MIN_THINKING_BUDGET_TOKENS, Math.floor(req.thinking.budgetTokens));
    params.thinking = { type: "enabled", budget_tokens: budget };
    if (params.max_tokens <= budget) params.max_tokens = budget + ANTHROPIC_ANSWER_HEADROOM_TOKENS;
  } else if (req.thinking.kind === "anthropic-adaptive") {
    // "summarized" because some models omit the thinking text by default; the user wants to see it.
    params.thinking = { type: "adaptive", display: "summarized" };
    params.output_config = { effort: req.thinking.effort };
  }
  return params;
}

/**
 * LlmContext -> Anthropic messages. Thinking goes back only when Anthropic signed it (the API
 * verifies the signature); unsigned or foreign thinking is dropped. Empty text blocks are dropped
 * (the API rejects them), and so is a message left with no content.
 */
export function convertMessages(context: LlmContext, attachments?: AttachmentData): MessageParam[] {
  const out: MessageParam[] = [];
  for (const msg of context.messages) {
    const content: ContentBlockParam[] = [];
    for (const block of msg.content) {
      if (block.type === "text") {
        if (block.text.length > 0) content.push({ type: "text", text: block.text });
      } else if (block.type === "image" || block.type === "document") {
        content.push(attachmentParam(resolveAttachment(block, attachments)));
      } else if (block.type === "thinking" && block.signedBy === API) {
        if (block.redactedData) content.push({ type: "redacted_thinking", data: block.redactedData });
        else if (block.signature) content.push({ type: "thinking", thinking: block.text, signature: block.signature });
      } else if (block.type === "tool_call") content.push(toolUseParam(block));
      else if (block.type === "tool_result") content.push(toolResultParam(block));
      else if (block.type === "server_tool") content.push(serverToolParam(block));
    }
    if (content.length > 0) out.push({ role: msg.role, content });
  }
  return out;
}

/** An image as an image block, a PDF as a document block (base64 sources), else its name as text. */
function attachmentParam(resolved: ResolvedAttachment): ContentBlockParam {
  if (resolved.kind === "label") return { type: "text", text: resolved.text };
  const { block, base64 } = resolved;
  if (block.type === "document") {
    return {
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data: base64 },
      title: block.name,
    };
  }
  const mediaType = ANTHROPIC_IMAGE_TYPES.find((t) => t === block.mimeType);
  // limits.ts refuses other types before sending; an imported odd one is named instead of failing the request.
  if (mediaType === undefined) return { type: "text", text: attachmentLabel(block) };
  return { type: "image", source: { type: "base64", media_type: mediaType, data: base64 } };
}

const ANTHROPIC_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
