/**
 * Tools in the Anthropic Messages adapter (anthropic.ts): the request's tool definitions (function
 * tools, the server tools web search / web fetch / code execution, the MCP connector under its beta),
 * tool blocks of the context as wire blocks, and the streamed tool blocks turned into Grove's
 * (`tool_call`, `server_tool`) with their events. Block shapes: `@anthropic-ai/sdk`'s
 * resources/messages (and beta/messages for the MCP connector).
 */
import type {
  ContentBlockParam,
  RawContentBlockStartEvent,
  ToolResultBlockParam,
  ToolUnion,
} from "@anthropic-ai/sdk/resources/messages";
import type { ServerToolSpec, ToolSpec } from "../core/agent/tool-spec";
import type { ServerToolBlock, ServerToolKind, ToolCallBlock, ToolResultBlock } from "../core/session/entries";
import { finalArgs, partialArgs } from "./tool-stream";
import type { AssistantPartial, StreamEvent } from "./types";

const API = "anthropic-messages" as const;

/** The beta of the MCP connector (`mcp_servers` + `mcp_toolset` tools). */
const ANTHROPIC_MCP_BETA = "mcp-client-2025-11-20";
/** What a tool result with no text is sent as (a result with empty content reads as nothing happened). */
export const EMPTY_TOOL_RESULT = "(no output)";

type Json = Record<string, unknown>;

function serverTool(spec: Exclude<ServerToolSpec, { kind: "mcp" }>): ToolUnion {
  switch (spec.kind) {
    case "web_search":
      return { type: "web_search_20250305", name: "web_search", ...(spec.maxUses ? { max_uses: spec.maxUses } : {}) };
    case "web_fetch":
      return { type: "web_fetch_20250910", name: "web_fetch", ...(spec.maxUses ? { max_uses: spec.maxUses } : {}) };
    case "code_execution":
      return { type: "code_execution_20250825", name: "code_execution" };
    default: {
      const unknown: never = spec;
      throw new Error(`Unknown server tool ${JSON.stringify(unknown)}`);
    }
  }
}

/** The request's tool fields: `tools`, the MCP connector's `mcp_servers`, and the betas they need. */
export function anthropicToolParams(tools: readonly ToolSpec[] = []): {
  tools: Array<ToolUnion | Json>;
  mcpServers: Json[];
  betas: string[];
} {
  const out: Array<ToolUnion | Json> = [];
  const mcpServers: Json[] = [];
  for (const t of tools) {
    if (t.kind === "function") {
      out.push({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        input_schema: { type: "object", ...t.parameters },
      });
    } else if (t.kind === "mcp") {
      mcpServers.push({
        type: "url",
        name: t.name,
        url: t.url,
        ...(t.authorizationToken ? { authorization_token: t.authorizationToken } : {}),
      });
      out.push({
        type: "mcp_toolset",
        mcp_server_name: t.name,
        ...(t.allowedTools
          ? {
              default_config: { enabled: false },
              configs: Object.fromEntries(t.allowedTools.map((name) => [name, { enabled: true }])),
            }
          : {}),
      });
    } else out.push(serverTool(t));
  }
  return { tools: out, mcpServers, betas: mcpServers.length > 0 ? [ANTHROPIC_MCP_BETA] : [] };
}

/** A call as `tool_use`: its input must be an object, so anything else (a hand-made import) is wrapped. */
export function toolUseParam(b: ToolCallBlock): ContentBlockParam {
  const input = typeof b.args === "object" && b.args !== null && !Array.isArray(b.args) ? b.args : { value: b.args };
  return { type: "tool_use", id: b.id, name: b.name, input };
}

export function toolResultParam(b: ToolResultBlock): ToolResultBlockParam {
  return {
    type: "tool_result",
    tool_use_id: b.callId,
    content: b.text === "" ? EMPTY_TOOL_RESULT : b.text,
    ...(b.isError ? { is_error: true } : {}),
  };
}

/** A server tool block goes back as it came (buildContext sends it only to the provider that made it). */
export const serverToolParam = (b: ServerToolBlock): ContentBlockParam => b.raw as unknown as ContentBlockParam;

// ---- the stream -----------------------------------------------------------------------------------

const USE_KINDS: Readonly<Record<string, ServerToolKind>> = {
  web_search: "web_search",
  web_fetch: "web_fetch",
  code_execution: "code_execution",
  bash_code_execution: "code_execution",
  text_editor_code_execution: "code_execution",
};

const RESULT_KINDS: Readonly<Record<string, { tool: ServerToolKind; name: string }>> = {
  web_search_tool_result: { tool: "web_search", name: "web_search" },
  web_fetch_tool_result: { tool: "web_fetch", name: "web_fetch" },
  code_execution_tool_result: { tool: "code_execution", name: "code_execution" },
  bash_code_execution_tool_result: { tool: "code_execution", name: "bash_code_execution" },
  text_editor_code_execution_tool_result: { tool: "code_execution", name: "text_editor_code_execution" },
  mcp_tool_result: { tool: "mcp", name: "mcp" },
};

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A result block's readable parts: its output, its sources, its files, whether it failed. */
function resultFields(block: Json): Pick<ServerToolBlock, "output" | "sources" | "files" | "produced" | "isError"> {
  const content = block.content;
  if (block.type === "mcp_tool_result") {
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((c) => (isJson(c) ? str(c.text) : "")).join("\n")
          : "";
    return { output: text, ...(block.is_error === true ? { isError: true } : {}) };
  }
  if (Array.isArray(content)) {
    // Web search results.
    const sources = content.filter(isJson).map((r) => ({ url: str(r.url), title: str(r.title) }));
    return { sources: sources.filter((s) => s.url !== "") };
  }
  if (!isJson(content)) return {};
  if (typeof content.error_code === "string") return { output: content.error_code, isError: true };
  if (content.type === "web_fetch_result") {
    const doc = isJson(content.content) ? content.content : {};
    const source = isJson(doc.source) ? doc.source : {};
    return {
      output: source.type === "text" ? str(source.data) : `[${str(source.media_type) || "document"}]`,
      sources: [{ url: str(content.url), title: str(doc.title) || str(content.url) }],
    };
  }
  if ("stdout" in content || "stderr" in content || "encrypted_stdout" in content) {
    const stdout = str(content.stdout);
    const stderr = str(content.stderr);
    const code = typeof content.return_code === "number" ? content.return_code : 0;
    const output = [stdout, stderr ? `[stderr]\n${stderr}` : "", code !== 0 ? `[exit code ${code}]` : ""]
      .filter(Boolean)
      .join("\n");
    const files = Array.isArray(content.content)
      ? content.content.flatMap((f) => (isJson(f) && typeof f.file_id === "string" ? [f.file_id] : []))
      : [];
    return {
      output,
      ...(files.length > 0 ? { files, produced: files.map((fileId) => ({ fileId })) } : {}),
      ...(code !== 0 ? { isError: true } : {}),
    };
  }
  return { output: JSON.stringify(content) };
}

/** A tool block in flight: its JSON arguments so far, and (server tools) the block as it started. */
type Pending =
  | { kind: "call"; block: ToolCallBlock; json: string }
  | { kind: "use"; block: ServerToolBlock; json: string; start: Json };

/**
 * Turns the reply's tool blocks into Grove's as they stream: `tool_use` → a `tool_call` (toolcall_*
 * events), `server_tool_use` / `mcp_tool_use` → a `server_tool` use (complete at its stop), the result
 * blocks → a `server_tool` result (complete at its start), citations onto their text block.
 */
export class AnthropicToolBlocks {
  readonly #pending = new Map<number, Pending>();
  /** Server tool uses by id: a result takes its tool's name from its use. */
  readonly #uses = new Map<string, ServerToolBlock>();

  constructor(
    private readonly partial: AssistantPartial,
    private readonly providerId: string,
  ) {}

  /** A `content_block_start` of a tool block: the event to yield, or null (also for other blocks). */
  start(event: RawContentBlockStartEvent): StreamEvent | null {
    const cb = event.content_block as unknown as Json;
    const type = str(cb.type);
    if (type === "tool_use") {
      const block: ToolCallBlock = { type: "tool_call", id: str(cb.id), name: str(cb.name), args: {} };
      this.#pending.set(event.index, { kind: "call", block, json: "" });
      return { type: "toolcall_start", index: this.#push(block), partial: this.partial };
    }
    if (type === "server_tool_use" || type === "mcp_tool_use") {
      const name = str(cb.name);
      const block: ServerToolBlock = {
        type: "server_tool",
        api: API,
        provider: this.providerId,
        tool: type === "mcp_tool_use" ? "mcp" : (USE_KINDS[name] ?? "other"),
        name,
        part: "use",
        callId: str(cb.id),
        ...(type === "mcp_tool_use" ? { server: str(cb.server_name) } : {}),
        input: {},
        raw: cb,
      };
      this.#pending.set(event.index, { kind: "use", block, json: "", start: cb });
      this.#uses.set(block.callId, block);
      this.#push(block);
      return null;
    }
    const kind = RESULT_KINDS[type];
    if (kind === undefined && !type.endsWith("_tool_result") && type !== "container_upload") return null;
    const callId = str(cb.tool_use_id);
    const use = this.#uses.get(callId);
    const block: ServerToolBlock = {
      type: "server_tool",
      api: API,
      provider: this.providerId,
      tool: kind?.tool ?? "other",
      name: use?.name ?? kind?.name ?? type,
      part: "result",
      callId,
      ...(use?.server ? { server: use.server } : {}),
      ...resultFields(cb),
      raw: cb,
    };
    return { type: "server_tool", index: this.#push(block), block, partial: this.partial };
  }

  /** An `input_json_delta` for a tool block: the event to yield, or null. */
  inputDelta(index: number, json: string): StreamEvent | null {
    const p = this.#pending.get(index);
    if (!p) return null;
    p.json += json;
    if (p.kind === "use") return null;
    p.block.args = partialArgs(p.json);
    return {
      type: "toolcall_delta",
      index: this.partial.content.indexOf(p.block),
      delta: json,
      partial: this.partial,
    };
  }

  /** A `content_block_stop`: the tool block there is complete. */
  stop(index: number): StreamEvent | null {
    const p = this.#pending.get(index);
    if (!p) return null;
    this.#pending.delete(index);
    const at = this.partial.content.indexOf(p.block);
    if (p.kind === "call") {
      p.block.args = finalArgs(p.json);
      return { type: "toolcall_end", index: at, toolCall: p.block, partial: this.partial };
    }
    const input = finalArgs(p.json);
    p.block.input = input;
    p.block.raw = { ...p.start, input };
    return { type: "server_tool", index: at, block: p.block, partial: this.partial };
  }

  /** Whether the block at a wire index is a tool block this class tracks. */
  has(index: number): boolean {
    return this.#pending.has(index);
  }

  #push(block: ToolCallBlock | ServerToolBlock): number {
    this.partial.content.push(block);
    return this.partial.content.length - 1;
  }
}

/** A web citation as Grove keeps it (other citation kinds point into documents, not at URLs). */
export function citationOf(citation: unknown): { url: string; title?: string; citedText?: string } | null {
  if (!isJson(citation) || citation.type !== "web_search_result_location") return null;
  const url = str(citation.url);
  if (url === "") return null;
  const title = str(citation.title);
  const citedText = str(citation.cited_text);
  return { url, ...(title ? { title } : {}), ...(citedText ? { citedText } : {}) };
}
