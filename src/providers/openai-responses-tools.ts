/**
 * Tools in the OpenAI Responses adapter (openai-responses.ts): definitions (function tools,
 * `web_search`, `code_interpreter`, `mcp`; Responses has no web fetch), tool blocks of the context as
 * input items (`function_call`, `function_call_output`, server tool items verbatim), and the streamed
 * items turned into Grove's blocks with their events. A call's Grove id is `<call_id>|<item id>`
 * (pi's convention, entries.ts). Shapes: the `openai` SDK's resources/responses/responses.
 */
import type {
  ResponseCreateParamsStreaming,
  ResponseFunctionToolCall,
  ResponseIncludable,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseOutputMessage,
  Tool,
} from "openai/resources/responses/responses";
import type { ToolSpec } from "../core/agent/tool-spec";
import type {
  Block,
  Citation,
  ProducedFileRef,
  ServerToolBlock,
  ServerToolKind,
  ToolCallBlock,
  ToolResultBlock,
} from "../core/session/entries";
import { EMPTY_TOOL_RESULT } from "./anthropic-tools";
import { finalArgs, partialArgs } from "./tool-stream";
import type { AssistantPartial, StreamEvent } from "./types";

const API = "openai-responses" as const;

/** The request's tools, and what it must `include` so their results come back whole. */
export function responsesToolParams(tools: readonly ToolSpec[] = []): {
  tools: Tool[];
  include: ResponseIncludable[];
} {
  const out: Tool[] = [];
  const include = new Set<ResponseIncludable>();
  for (const t of tools) {
    switch (t.kind) {
      case "function":
        out.push({
          type: "function",
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          parameters: { type: "object", ...t.parameters },
          strict: false,
        });
        break;
      case "web_search":
        out.push({ type: "web_search" });
        include.add("web_search_call.action.sources");
        break;
      case "code_execution":
        out.push({ type: "code_interpreter", container: { type: "auto" } });
        include.add("code_interpreter_call.outputs");
        break;
      case "mcp":
        out.push({
          type: "mcp",
          server_label: t.name,
          server_url: t.url,
          // Grove asks the user before a tool runs only for the calls it makes itself; a server the
          // provider connects to was allowed as a whole when the user switched it on.
          require_approval: "never",
          ...(t.authorizationToken ? { authorization: t.authorizationToken } : {}),
          ...(t.allowedTools ? { allowed_tools: [...t.allowedTools] } : {}),
        });
        break;
      case "web_fetch":
        // No Responses form: left out (tool-support.ts does not offer it for this api).
        break;
      default: {
        const unknown: never = t;
        throw new Error(`Unknown tool ${JSON.stringify(unknown)}`);
      }
    }
  }
  return { tools: out, include: [...include] };
}

/** `<call_id>|<item id>` → its two parts (an id without the item part is all call id). */
function splitCallId(id: string): { callId: string; itemId?: string } {
  const bar = id.indexOf("|");
  return bar < 0 ? { callId: id } : { callId: id.slice(0, bar), itemId: id.slice(bar + 1) };
}

export function functionCallItem(b: ToolCallBlock): ResponseInputItem {
  const { callId, itemId } = splitCallId(b.id);
  const item: ResponseFunctionToolCall = {
    type: "function_call",
    call_id: callId,
    name: b.name,
    arguments: JSON.stringify(b.args ?? {}),
  };
  // Only an id the API issued (`fc_…`) may be sent back; it ties the call to the reasoning before it.
  if (itemId?.startsWith("fc")) item.id = itemId;
  return item;
}

export function functionCallOutputItem(b: ToolResultBlock): ResponseInputItem {
  return {
    type: "function_call_output",
    call_id: splitCallId(b.callId).callId,
    output: b.text === "" ? EMPTY_TOOL_RESULT : b.text,
  };
}

/** A server tool item goes back as it came (buildContext sends it only to the provider that made it). */
export const serverToolItem = (b: ServerToolBlock): ResponseInputItem => b.raw as unknown as ResponseInputItem;

// ---- the stream -----------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const SERVER_ITEMS: Readonly<Record<string, ServerToolKind>> = {
  web_search_call: "web_search",
  code_interpreter_call: "code_execution",
  mcp_call: "mcp",
};

/** A finished provider-run item as a server tool block (null for items that are not one). */
export function serverToolFromItem(item: ResponseOutputItem, providerId: string): ServerToolBlock | null {
  const raw = item as unknown as Json;
  const type = str(raw.type);
  if (type === "message" || type === "reasoning" || type === "function_call" || type === "compaction") return null;
  const base = {
    type: "server_tool" as const,
    api: API,
    provider: providerId,
    part: "item" as const,
    callId: str(raw.id),
    raw,
  };
  switch (type) {
    case "web_search_call": {
      const action = isJson(raw.action) ? raw.action : {};
      const sources: Citation[] = Array.isArray(action.sources)
        ? action.sources.flatMap((s) => (isJson(s) && typeof s.url === "string" ? [{ url: s.url }] : []))
        : [];
      const input = action.type === "search" ? { query: str(action.query) } : { url: str(action.url) };
      return {
        ...base,
        tool: "web_search",
        name: "web_search",
        input,
        ...(sources.length > 0 ? { sources } : {}),
        ...(raw.status === "failed" ? { isError: true } : {}),
      };
    }
    case "code_interpreter_call": {
      const outputs = Array.isArray(raw.outputs) ? raw.outputs.filter(isJson) : [];
      const logs = outputs.flatMap((o) => (o.type === "logs" ? [str(o.logs)] : [])).join("\n");
      // Image outputs (a chart the code drew) have no file id: each is fetched from its URL after the reply.
      const images: ProducedFileRef[] = outputs
        .flatMap((o) => (o.type === "image" && str(o.url) !== "" ? [str(o.url)] : []))
        .map((url, i) => ({ fileId: `${base.callId}/image-${(i + 1).toString()}`, url }));
      return {
        ...base,
        tool: "code_execution",
        name: "code_interpreter",
        input: { code: str(raw.code) },
        output: logs,
        ...(images.length > 0 ? { produced: images } : {}),
        ...(raw.status === "failed" ? { isError: true } : {}),
      };
    }
    case "mcp_call": {
      const failed = raw.status === "failed" || (raw.error !== null && raw.error !== undefined);
      return {
        ...base,
        tool: "mcp",
        name: str(raw.name),
        server: str(raw.server_label),
        input: finalArgs(str(raw.arguments)),
        output: failed ? str(raw.error) || "The MCP call failed." : str(raw.output),
        ...(failed ? { isError: true } : {}),
      };
    }
    case "mcp_list_tools": {
      const tools = Array.isArray(raw.tools) ? raw.tools.filter(isJson).map((t) => str(t.name)) : [];
      return { ...base, tool: "other", name: type, server: str(raw.server_label), output: tools.join(", ") };
    }
    default:
      return { ...base, tool: SERVER_ITEMS[type] ?? "other", name: type };
  }
}

/** The `url_citation`s of a finished message item. */
export function messageCitations(item: ResponseOutputMessage): Citation[] {
  const out: Citation[] = [];
  for (const part of item.content) {
    if (part.type !== "output_text") continue;
    for (const a of part.annotations) {
      if (a.type !== "url_citation") continue;
      out.push({
        url: a.url,
        ...(a.title ? { title: a.title } : {}),
        ...(a.end_index > a.start_index ? { citedText: part.text.slice(a.start_index, a.end_index) } : {}),
      });
    }
  }
  return out;
}

/**
 * The `container_file_citation`s of a finished message item (files code interpreter wrote) onto the
 * reply's code interpreter block of the same container (the last one when none matches), so Grove
 * downloads them after the reply (core/session/code-files.ts). Returns whether any was placed.
 */
export function attachContainerFiles(item: ResponseOutputMessage, content: readonly Block[]): boolean {
  const refs: ProducedFileRef[] = [];
  for (const part of item.content) {
    if (part.type !== "output_text") continue;
    for (const a of part.annotations)
      if (a.type === "container_file_citation" && a.file_id !== "" && !refs.some((r) => r.fileId === a.file_id))
        refs.push({ fileId: a.file_id, containerId: a.container_id, name: a.filename });
  }
  if (refs.length === 0) return false;
  const blocks = content.filter(
    (b): b is ServerToolBlock => b.type === "server_tool" && b.tool === "code_execution" && b.api === API,
  );
  let placed = false;
  for (const ref of refs) {
    const block = blocks.findLast((b) => b.raw.container_id === ref.containerId) ?? blocks.at(-1);
    if (!block) continue;
    if (!(block.produced ?? []).some((r) => r.fileId === ref.fileId)) block.produced = [...(block.produced ?? []), ref];
    placed = true;
  }
  return placed;
}

/** Streamed `function_call` items → `tool_call` blocks with their events, by output index. */
export class ResponsesToolCalls {
  readonly #open = new Map<number, { block: ToolCallBlock; json: string }>();

  constructor(private readonly partial: AssistantPartial) {}

  added(outputIndex: number, item: ResponseFunctionToolCall): StreamEvent {
    const block: ToolCallBlock = {
      type: "tool_call",
      id: item.id ? `${item.call_id}|${item.id}` : item.call_id,
      name: item.name,
      args: {},
    };
    this.partial.content.push(block);
    this.#open.set(outputIndex, { block, json: item.arguments ?? "" });
    return { type: "toolcall_start", index: this.partial.content.length - 1, partial: this.partial };
  }

  delta(outputIndex: number, delta: string): StreamEvent | null {
    const call = this.#open.get(outputIndex);
    if (!call || delta === "") return null;
    call.json += delta;
    call.block.args = partialArgs(call.json);
    return { type: "toolcall_delta", index: this.partial.content.indexOf(call.block), delta, partial: this.partial };
  }

  /** The finished item is authoritative: its arguments replace what streamed (an item never announced opens here). */
  done(outputIndex: number, item: ResponseFunctionToolCall): StreamEvent[] {
    const opened = this.#open.has(outputIndex) ? [] : [this.added(outputIndex, item)];
    const call = this.#open.get(outputIndex);
    if (!call) return opened;
    this.#open.delete(outputIndex);
    call.block.args = finalArgs(item.arguments || call.json);
    const end: StreamEvent = {
      type: "toolcall_end",
      index: this.partial.content.indexOf(call.block),
      toolCall: call.block,
      partial: this.partial,
    };
    return [...opened, end];
  }
}

/** The `include` list of a request: reasoning always, plus what its tools need. */
export function includesFor(tools: readonly ToolSpec[] | undefined): ResponseCreateParamsStreaming["include"] {
  return ["reasoning.encrypted_content", ...responsesToolParams(tools).include];
}
