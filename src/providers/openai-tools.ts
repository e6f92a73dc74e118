/**
 * Tools in the Chat Completions adapter (openai.ts): function definitions, tool blocks of the context
 * as `tool_calls` and `tool` messages, and streamed `tool_calls` deltas turned into Grove's calls with
 * their events. Chat Completions has no provider-run tools: those specs are left out of the request.
 * Shapes: the `openai` SDK's resources/chat/completions.
 */
import type {
  ChatCompletionChunk,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { ToolSpec } from "../core/agent/tool-spec";
import type { ToolCallBlock } from "../core/session/entries";
import { EMPTY_TOOL_RESULT } from "./anthropic-tools";
import { finalArgs, partialArgs } from "./tool-stream";
import type { AssistantPartial, StreamEvent } from "./types";

/** The request's `tools`: its function tools (provider-run tools have no Chat Completions form). */
export function chatToolParams(tools: readonly ToolSpec[] = []): ChatCompletionTool[] {
  return tools.flatMap((t) =>
    t.kind === "function"
      ? [
          {
            type: "function" as const,
            function: {
              name: t.name,
              ...(t.description ? { description: t.description } : {}),
              parameters: { type: "object", ...t.parameters },
            },
          },
        ]
      : [],
  );
}

export function chatToolCall(b: ToolCallBlock): ChatCompletionMessageToolCall {
  return { id: b.id, type: "function", function: { name: b.name, arguments: JSON.stringify(b.args ?? {}) } };
}

export const toolMessageContent = (text: string): string => (text === "" ? EMPTY_TOOL_RESULT : text);

type Delta = NonNullable<ChatCompletionChunk.Choice.Delta["tool_calls"]>[number];

/**
 * Streamed `tool_calls` deltas → `tool_call` blocks: a delta with a new index (or, from servers that
 * send no index, a new id) opens a call; argument pieces extend the one at that index; `finish` closes
 * every open call. Some compatible servers send a call whole in one delta, arguments as an object.
 */
export class ChatToolCalls {
  readonly #open = new Map<number, { block: ToolCallBlock; json: string }>();

  constructor(private readonly partial: AssistantPartial) {}

  /** The events for one chunk's `tool_calls`. */
  apply(deltas: readonly Delta[]): StreamEvent[] {
    const out: StreamEvent[] = [];
    deltas.forEach((d, position) => {
      const index = typeof d.index === "number" ? d.index : position;
      let call = this.#open.get(index);
      if (call === undefined || (d.id && d.id !== call.block.id)) {
        if (call !== undefined) out.push(this.#end(index, call));
        const block: ToolCallBlock = {
          type: "tool_call",
          id: d.id ?? `call_${index}`,
          name: d.function?.name ?? "",
          args: {},
        };
        this.partial.content.push(block);
        call = { block, json: "" };
        this.#open.set(index, call);
        out.push({ type: "toolcall_start", index: this.partial.content.length - 1, partial: this.partial });
      } else if (d.function?.name) call.block.name += d.function.name;
      const args: unknown = d.function?.arguments;
      const piece = typeof args === "string" ? args : args !== undefined && args !== null ? JSON.stringify(args) : "";
      if (piece !== "") {
        call.json += piece;
        call.block.args = partialArgs(call.json);
        out.push({
          type: "toolcall_delta",
          index: this.partial.content.indexOf(call.block),
          delta: piece,
          partial: this.partial,
        });
      }
    });
    return out;
  }

  /** Closes every open call (the reply finished). */
  finish(): StreamEvent[] {
    const out = [...this.#open.entries()].map(([index, call]) => this.#end(index, call));
    this.#open.clear();
    return out;
  }

  #end(index: number, call: { block: ToolCallBlock; json: string }): StreamEvent {
    this.#open.delete(index);
    call.block.args = finalArgs(call.json);
    return {
      type: "toolcall_end",
      index: this.partial.content.indexOf(call.block),
      toolCall: call.block,
      partial: this.partial,
    };
  }
}
