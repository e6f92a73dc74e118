/**
 * OpenAI Responses adapter over `openai` (`client.responses.create`, DESIGN §7): the built-in
 * OpenAI provider's wire protocol. OpenAI-compatible servers keep Chat Completions (openai.ts).
 *
 * Stateless on OpenAI's side (`store: false`): every request carries the whole context, and
 * reasoning comes back as items with `encrypted_content` (`include: ["reasoning.encrypted_content"]`).
 * Those items are kept on the reply as `reasoning` blocks (summary shown like thinking) and sent
 * back verbatim on later turns to the same provider only (normalize-messages.ts decides that).
 *
 * Contract (STYLE §2.2): the iterable never throws. It yields `start`, then deltas carrying the
 * partial, then exactly one `done` or `error` (which keeps the partial reply).
 *
 * Does not retry (withRetry does) and does not decide what the model sees (buildContext does).
 */

import type {
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
  ResponseUsage,
} from "openai/resources/responses/responses";
import type { LlmContext } from "../core/session/context";
import type { ReasoningBlock, StopReason, TextBlock, Usage } from "../core/session/entries";
import { serverToolText } from "../core/session/entry-text";
import { type AttachmentData, dataUrl, type ResolvedAttachment, resolveAttachment } from "./attachment-data";
import { abortedError, classifyError, StreamEndedError, StreamErrorPayload } from "./classify-error";
import type { ClientDeps } from "./client-config";
import { withOpenAINativeItems } from "./native-prefix";
import { makeOpenAIClient } from "./openai-client";
import {
  attachContainerFiles,
  functionCallItem,
  functionCallOutputItem,
  includesFor,
  messageCitations,
  ResponsesToolCalls,
  responsesToolParams,
  serverToolFromItem,
  serverToolItem,
} from "./openai-responses-tools";
import { temperatureFor } from "./temperature";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "./types";

const API = "openai-responses" as const;

/** The adapter with injectable dependencies (tests pass a fake `fetch`). */
export function createOpenAIResponsesStream(deps: ClientDeps = {}): StreamFn {
  return (req) => run(req, deps);
}

export const streamOpenAIResponses: StreamFn = createOpenAIResponsesStream();

async function* run(req: StreamRequest, deps: ClientDeps): AsyncGenerator<StreamEvent> {
  const partial: AssistantPartial = { content: [], providerId: req.provider.id, api: API, model: req.model };
  yield { type: "start", partial };

  try {
    const client = makeOpenAIClient(req.provider, deps);
    const stream = await client.responses.create(buildParams(req), { signal: req.signal });

    let finish: StopReason | undefined;
    let refused = false;
    // Reasoning blocks by output index: summary deltas and the finished item address them so.
    const reasoning = new Map<number, ReasoningBlock>();
    const calls = new ResponsesToolCalls(partial);

    for await (const event of stream) {
      switch (event.type) {
        case "response.output_item.added":
          if (event.item.type === "reasoning") {
            const block = reasoningBlock(event.item, req.provider.id);
            reasoning.set(event.output_index, block);
            partial.content.push(block);
          } else if (event.item.type === "function_call") yield calls.added(event.output_index, event.item);
          break;
        case "response.function_call_arguments.delta": {
          const out = calls.delta(event.output_index, event.delta);
          if (out) yield out;
          break;
        }
        case "response.reasoning_summary_text.delta": {
          const block = reasoning.get(event.output_index);
          if (!block || !event.delta) break;
          // A new array each time: consumers copy blocks shallowly, so earlier snapshots keep theirs.
          const summary = [...block.summary];
          summary[event.summary_index] = (summary[event.summary_index] ?? "") + event.delta;
          block.summary = Array.from(summary, (s) => s ?? "");
          yield { type: "thinking_delta", delta: event.delta, partial };
          break;
        }
        case "response.output_text.delta":
          if (event.delta) yield { type: "text_delta", delta: event.delta, partial: appendText(partial, event.delta) };
          break;
        case "response.refusal.delta":
          // Shown as the reply's text so the user sees why.
          refused = true;
          if (event.delta) yield { type: "text_delta", delta: event.delta, partial: appendText(partial, event.delta) };
          break;
        case "response.output_item.done": {
          const item = event.item;
          if (item.type === "reasoning") {
            // The finished item is authoritative: its id, its full summary, its encrypted content.
            const done = reasoningBlock(item, req.provider.id);
            const block = reasoning.get(event.output_index);
            if (block) Object.assign(block, done);
            else partial.content.push(done);
          } else if (item.type === "function_call") {
            yield* calls.done(event.output_index, item);
          } else if (item.type === "message") {
            // Files code interpreter wrote go onto its block (downloaded after the reply).
            attachContainerFiles(item, partial.content);
            const citations = messageCitations(item);
            const last = partial.content.at(-1);
            if (citations.length > 0 && last?.type === "text")
              last.citations = [...(last.citations ?? []), ...citations];
          } else {
            // A provider-run tool (web search, code interpreter, MCP): complete when its item is done.
            const block = serverToolFromItem(item, req.provider.id);
            if (block) {
              partial.content.push(block);
              yield { type: "server_tool", index: partial.content.length - 1, block, partial };
            }
          }
          break;
        }
        case "response.completed":
          if (event.response.usage) partial.usage = mapUsage(event.response.usage);
          // Calls to run: the model waits for their results.
          finish = partial.content.some((b) => b.type === "tool_call") ? "tool_use" : "end";
          break;
        case "response.incomplete":
          if (event.response.usage) partial.usage = mapUsage(event.response.usage);
          finish = mapStopReason(event.response.incomplete_details?.reason);
          break;
        case "response.failed":
          throw new StreamErrorPayload(event.response.error ?? { message: "The response failed." });
        case "error":
          throw new StreamErrorPayload({ code: event.code, message: event.message, param: event.param });
        default:
          break;
      }
    }

    // The SDK ends iteration quietly when its signal aborts mid-body; a body that closes without
    // response.completed / response.incomplete is a dropped connection, not a finished reply.
    if (!finish) {
      if (!req.signal.aborted) throw new StreamEndedError();
      partial.stopReason = "aborted";
      yield { type: "error", partial, error: abortedError() };
      return;
    }

    partial.stopReason = refused && finish === "end" ? "refusal" : finish;
    yield { type: "done", partial };
  } catch (err) {
    const error = req.signal.aborted ? abortedError() : classifyError(err, API);
    partial.stopReason = error.kind === "aborted" ? "aborted" : "error";
    yield { type: "error", partial, error };
  }
}

function reasoningBlock(item: ResponseReasoningItem, providerId: string): ReasoningBlock {
  const block: ReasoningBlock = {
    type: "reasoning",
    api: API,
    provider: providerId,
    id: item.id,
    summary: item.summary.map((s) => s.text),
  };
  if (item.encrypted_content) block.encryptedContent = item.encrypted_content;
  return block;
}

function appendText(partial: AssistantPartial, text: string): AssistantPartial {
  const last = partial.content.at(-1);
  if (last?.type === "text") last.text += text;
  else partial.content.push({ type: "text", text } satisfies TextBlock);
  return partial;
}

function mapUsage(u: ResponseUsage): Usage {
  // input_tokens already includes cached tokens; output_tokens includes reasoning tokens.
  const usage: Usage = { input: u.input_tokens ?? 0, output: u.output_tokens ?? 0 };
  const cached = u.input_tokens_details?.cached_tokens;
  if (cached) usage.cacheRead = cached;
  return usage;
}

/** Why an `incomplete` response stopped: the output limit, or the content filter. */
function mapStopReason(reason: string | undefined): StopReason {
  switch (reason) {
    case "max_output_tokens":
      return "length";
    case "content_filter":
      return "refusal";
    default:
      // An incomplete reply is never a clean end; the output limit is the common cause.
      return "length";
  }
}

function buildParams(req: StreamRequest): ResponseCreateParamsStreaming {
  const params: ResponseCreateParamsStreaming = {
    model: req.model,
    input: withOpenAINativeItems(req.context, convertMessages(req.context, req.attachments)),
    stream: true,
    // Nothing is kept on OpenAI's side: reasoning survives turns as encrypted items instead.
    store: false,
    include: includesFor(req.tools),
    max_output_tokens: req.maxOutputTokens,
  };
  const tools = responsesToolParams(req.tools).tools;
  if (tools.length > 0) params.tools = tools;
  if (req.context.system.trim()) params.instructions = req.context.system;
  const temperature = temperatureFor(req);
  if (temperature !== undefined) params.temperature = temperature;
  if (req.thinking.kind === "openai-effort") params.reasoning = { effort: req.thinking.effort, summary: "auto" };
  return params;
}

/**
 * LlmContext -> Responses input items. User turns are plain messages; an assistant turn is its
 * reasoning items (verbatim: id, summary, encrypted content) in order, followed by its text as
 * one assistant message. Anthropic thinking never reaches here (normalize drops it).
 */
export function convertMessages(context: LlmContext, attachments?: AttachmentData): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const msg of context.messages) {
    if (msg.role === "user") {
      // Tool results first (tool-pairs.ts), each a `function_call_output` item.
      for (const b of msg.content) if (b.type === "tool_result") out.push(functionCallOutputItem(b));
      const rest = msg.content.filter((b) => b.type !== "tool_result");
      if (rest.every((b) => b.type === "text")) {
        const text = rest.flatMap((b) => (b.type === "text" && b.text.length > 0 ? [b.text] : [])).join("\n\n");
        if (text) out.push({ type: "message", role: "user", content: text });
      } else {
        // With attachments: content parts, the text first and each image or PDF as its own input.
        const parts: ResponseInputContent[] = [];
        for (const b of rest) {
          if (b.type === "text") {
            if (b.text.length > 0) parts.push({ type: "input_text", text: b.text });
          } else if (b.type === "image" || b.type === "document") {
            parts.push(inputPart(resolveAttachment(b, attachments)));
          }
        }
        if (parts.length > 0) out.push({ type: "message", role: "user", content: parts });
      }
      continue;
    }
    const texts: string[] = [];
    const flush = (): void => {
      if (texts.length > 0) out.push({ type: "message", role: "assistant", content: texts.join("\n\n") });
      texts.length = 0;
    };
    for (const b of msg.content) {
      if (b.type === "text") {
        if (b.text.length > 0) texts.push(b.text);
      } else if (b.type === "tool_call") {
        flush();
        out.push(functionCallItem(b));
      } else if (b.type === "server_tool") {
        // Native only for this api (buildContext); an Anthropic-style use/result part is read as text.
        if (b.api === API && b.part === "item") {
          flush();
          out.push(serverToolItem(b));
        } else texts.push(serverToolText(b));
      } else if (b.type === "reasoning" && b.api === API) {
        flush();
        const item: ResponseReasoningItem = {
          type: "reasoning",
          id: b.id,
          summary: b.summary.map((text) => ({ type: "summary_text", text })),
        };
        if (b.encryptedContent !== undefined) item.encrypted_content = b.encryptedContent;
        out.push(item);
      }
    }
    flush();
  }
  return out;
}

/** An image as `input_image`, a PDF as `input_file` (both as data: URLs), else its name as `input_text`. */
function inputPart(resolved: ResolvedAttachment): ResponseInputContent {
  if (resolved.kind === "label") return { type: "input_text", text: resolved.text };
  const { block, base64 } = resolved;
  if (block.type === "document") {
    return { type: "input_file", filename: block.name, file_data: dataUrl(block.mimeType, base64) };
  }
  return { type: "input_image", image_url: dataUrl(block.mimeType, base64), detail: "auto" };
}
