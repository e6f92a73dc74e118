/**
 * OpenAI Chat Completions adapter over `openai` (DESIGN §7). Speaks to api.openai.com and to
 * OpenAI-compatible servers (OpenRouter, Ollama, LM Studio, llama.cpp, vLLM, the e2e mock).
 *
 * Contract (STYLE §2.2): the iterable never throws. It yields `start`, then deltas carrying the
 * partial, then exactly one `done` or `error` (which keeps the partial reply).
 *
 * Does not retry (withRetry does) and does not decide what the model sees (buildContext does).
 */

import type {
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { LlmContext } from "../core/session/context";
import type { StopReason, TextBlock, ThinkingBlock, Usage } from "../core/session/entries";
import { serverToolText } from "../core/session/entry-text";
import { type AttachmentData, dataUrl, type ResolvedAttachment, resolveAttachment } from "./attachment-data";
import { abortedError, classifyError, StreamEndedError, StreamErrorPayload } from "./classify-error";
import type { ClientDeps } from "./client-config";
import { makeOpenAIClient } from "./openai-client";
import { ChatToolCalls, chatToolCall, chatToolParams, toolMessageContent } from "./openai-tools";
import { temperatureFor } from "./temperature";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "./types";

const API = "openai-chat" as const;

/** The adapter with injectable dependencies (tests pass a fake `fetch`). */
export function createOpenAIStream(deps: ClientDeps = {}): StreamFn {
  return (req) => run(req, deps);
}

export const streamOpenAI: StreamFn = createOpenAIStream();

async function* run(req: StreamRequest, deps: ClientDeps): AsyncGenerator<StreamEvent> {
  const partial: AssistantPartial = { content: [], providerId: req.provider.id, api: API, model: req.model };
  yield { type: "start", partial };

  try {
    const client = makeOpenAIClient(req.provider, deps);
    const stream = await client.chat.completions.create(buildParams(req), { signal: req.signal });

    let finish: StopReason | undefined;
    let refused = false;
    const calls = new ChatToolCalls(partial);

    for await (const chunk of stream) {
      // The SDK throws on `{"error": ...}` lines itself (OpenAI, OpenRouter, SGLang). vLLM sends
      // `{"object":"error","message":"...","code":400}` instead, which the SDK passes on as a chunk.
      if (field(chunk, "object") === "error") throw new StreamErrorPayload(chunk);

      if (chunk.usage) partial.usage = mapUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;

      const reasoning = reasoningDelta(choice.delta);
      if (reasoning) yield { type: "thinking_delta", delta: reasoning, partial: appendThinking(partial, reasoning) };

      const text = choice.delta?.content;
      if (text) yield { type: "text_delta", delta: text, partial: appendText(partial, text) };

      // A refusal arrives as its own field; shown as the reply's text so the user sees why.
      const refusal = choice.delta?.refusal;
      if (refusal) {
        refused = true;
        yield { type: "text_delta", delta: refusal, partial: appendText(partial, refusal) };
      }

      const toolCalls = choice.delta?.tool_calls;
      if (toolCalls && toolCalls.length > 0) yield* calls.apply(toolCalls);

      const reason: string | null | undefined = choice.finish_reason;
      if (reason === "error") {
        // OpenRouter: a chunk with finish_reason "error" (its `error` field was thrown by the SDK
        // already when present; this covers providers that only set the reason).
        throw new StreamErrorPayload(field(chunk, "error") ?? { message: "The model stopped with an error." });
      }
      if (reason) {
        finish = mapStopReason(reason);
        yield* calls.finish();
      }
    }

    // The SDK ends iteration quietly when its signal aborts mid-body; a body that closes without a
    // finish_reason is a dropped connection, not a finished reply.
    if (!finish) {
      if (!req.signal.aborted) throw new StreamEndedError();
      partial.stopReason = "aborted";
      yield { type: "error", partial, error: abortedError() };
      return;
    }

    // Some compatible servers end a reply with calls as "stop": calls to run are a tool-use stop.
    const called = partial.content.some((b) => b.type === "tool_call");
    partial.stopReason = refused && finish === "end" ? "refusal" : called && finish === "end" ? "tool_use" : finish;
    yield { type: "done", partial };
  } catch (err) {
    const error = req.signal.aborted ? abortedError() : classifyError(err, API);
    partial.stopReason = error.kind === "aborted" ? "aborted" : "error";
    yield { type: "error", partial, error };
  }
}

/** Reads a field the SDK's chunk type does not declare (compatible servers add their own). */
function field(obj: unknown, key: string): unknown {
  return typeof obj === "object" && obj !== null ? (obj as Record<string, unknown>)[key] : undefined;
}

/**
 * Reasoning text from OpenAI-compatible servers: `reasoning_content` (DeepSeek, vLLM, LM Studio,
 * llama.cpp) or `reasoning` (OpenRouter, Ollama). Some servers send both with the same text, so
 * one is taken, never both. OpenAI itself streams no reasoning text in Chat Completions.
 */
function reasoningDelta(delta: ChatCompletionChunk.Choice.Delta | undefined): string | undefined {
  const rc = field(delta, "reasoning_content");
  if (typeof rc === "string" && rc.length > 0) return rc;
  const r = field(delta, "reasoning");
  if (typeof r === "string" && r.length > 0) return r;
  return undefined;
}

function appendText(partial: AssistantPartial, text: string): AssistantPartial {
  const last = partial.content.at(-1);
  if (last?.type === "text") last.text += text;
  else partial.content.push({ type: "text", text } satisfies TextBlock);
  return partial;
}

/** Unsigned reasoning: `signedBy` stays unset, so it is shown but never sent back (DESIGN §3). */
function appendThinking(partial: AssistantPartial, text: string): AssistantPartial {
  const last = partial.content.at(-1);
  if (last?.type === "thinking") last.text += text;
  else partial.content.push({ type: "thinking", text } satisfies ThinkingBlock);
  return partial;
}

function mapUsage(u: NonNullable<ChatCompletionChunk["usage"]>): Usage {
  // prompt_tokens already includes cached tokens; completion_tokens includes reasoning tokens.
  const usage: Usage = { input: u.prompt_tokens ?? 0, output: u.completion_tokens ?? 0 };
  const cached = u.prompt_tokens_details?.cached_tokens;
  if (cached) usage.cacheRead = cached;
  return usage;
}

function mapStopReason(reason: string): StopReason {
  switch (reason) {
    case "stop":
    // Ollama and some gateways report a clean end as "eos" / "end_turn".
    case "eos":
    case "end_turn":
      return "end";
    case "length":
    case "max_tokens":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return "end";
  }
}

/**
 * OpenAI deprecated `max_tokens` for `max_completion_tokens`, and its reasoning models (o1, o3,
 * o4, gpt-5) reject `max_tokens` outright ("Unsupported parameter: 'max_tokens' is not supported
 * with this model. Use 'max_completion_tokens' instead."). Many OpenAI-compatible servers (older
 * Ollama, llama.cpp, LM Studio, vLLM builds, most gateways) know only `max_tokens` and silently
 * ignore the new name, leaving the reply unbounded. So: the new name for api.openai.com and for
 * OpenAI's reasoning model ids, the old one everywhere else.
 */
export function usesMaxCompletionTokens(baseUrl: string, model: string): boolean {
  let host = "";
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    host = "";
  }
  return host === "api.openai.com" || /^(?:o1|o3|o4|gpt-5)/i.test(model);
}

function buildParams(req: StreamRequest): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model: req.model,
    messages: convertMessages(req.context, req.attachments),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (usesMaxCompletionTokens(req.provider.baseUrl, req.model)) params.max_completion_tokens = req.maxOutputTokens;
  else params.max_tokens = req.maxOutputTokens;
  if (req.thinking.kind === "openai-effort") params.reasoning_effort = req.thinking.effort;
  const temperature = temperatureFor(req);
  if (temperature !== undefined) params.temperature = temperature;
  const tools = chatToolParams(req.tools);
  if (tools.length > 0) params.tools = tools;
  return params;
}

/**
 * LlmContext -> chat messages. Content is sent as one string (several compatible servers reject
 * content-part arrays), except a user message with an image or a PDF: then parts, the only way to
 * send them. Thinking is never sent back (nothing OpenAI-compatible signs it).
 */
export function convertMessages(context: LlmContext, attachments?: AttachmentData): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (context.system.trim()) out.push({ role: "system", content: context.system });
  for (const msg of context.messages) {
    if (msg.role === "user") {
      // Tool results come first in a user turn (tool-pairs.ts): each is a `tool` message.
      for (const b of msg.content) {
        if (b.type === "tool_result") {
          out.push({ role: "tool", tool_call_id: b.callId, content: toolMessageContent(b.text) });
        }
      }
      const rest = msg.content.filter((b) => b.type !== "tool_result");
      if (rest.some((b) => b.type !== "text")) {
        const parts: ChatCompletionContentPart[] = [];
        for (const b of rest) {
          if (b.type === "text") {
            if (b.text.length > 0) parts.push({ type: "text", text: b.text });
          } else if (b.type === "image" || b.type === "document") {
            parts.push(contentPart(resolveAttachment(b, attachments)));
          }
        }
        out.push({ role: "user", content: parts });
        continue;
      }
      const text = rest.flatMap((b) => (b.type === "text" && b.text.length > 0 ? [b.text] : [])).join("\n\n");
      if (text) out.push({ role: "user", content: text });
      continue;
    }
    // Server tool blocks are another api's (buildContext sends them native only to their own): as text.
    const text = msg.content
      .flatMap((b) =>
        b.type === "text" && b.text.length > 0 ? [b.text] : b.type === "server_tool" ? [serverToolText(b)] : [],
      )
      .join("\n\n");
    const toolCalls = msg.content.flatMap((b) => (b.type === "tool_call" ? [chatToolCall(b)] : []));
    if (toolCalls.length > 0) out.push({ role: "assistant", content: text || null, tool_calls: toolCalls });
    else if (text) out.push({ role: "assistant", content: text });
  }
  return out;
}

/** An image as `image_url`, a PDF as a `file` part (both as data: URLs), else its name as text. */
function contentPart(resolved: ResolvedAttachment): ChatCompletionContentPart {
  if (resolved.kind === "label") return { type: "text", text: resolved.text };
  const { block, base64 } = resolved;
  if (block.type === "document") {
    return { type: "file", file: { filename: block.name, file_data: dataUrl(block.mimeType, base64) } };
  }
  return { type: "image_url", image_url: { url: dataUrl(block.mimeType, base64) } };
}
