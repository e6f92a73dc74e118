/**
 * Tools in the Anthropic Messages wire format (anthropic.ts streams and sends what this builds):
 * function calls as `tool_use` blocks (input streamed as `input_json_delta`), the provider-run tools as
 * `server_tool_use` + their result block (`web_search_tool_result`, `web_fetch_tool_result`,
 * `bash_code_execution_tool_result` / `code_execution_tool_result`), the MCP connector as `mcp_tool_use` +
 * `mcp_tool_result`, and citations on text blocks. Shapes follow `@anthropic-ai/sdk`'s
 * resources/messages/messages.d.ts (and beta/messages for MCP). Also the API's tool pairing checks, with
 * its own error messages. No I/O here.
 */
import { createHash } from "node:crypto";
import { argumentChunks, type ReplyPlan } from "./plan";
import type { ScriptCitation, ServerToolScript } from "./types";
import { isRecord } from "./wire";

type Json = Record<string, unknown>;

/** One content block of a reply: whole (JSON replies, `content_block_start` of result blocks) and as streamed. */
export type ReplyBlock = {
  /** The block as a non-streaming reply carries it. */
  full: Json;
  /** `content_block_start`'s block (tool inputs start as `{}`). */
  start: Json;
  /** The `content_block_delta` deltas after it. */
  deltas: Json[];
};

const DIRECT = { type: "direct" } as const;

/** An opaque, deterministic stand-in for the API's encrypted fields. */
function opaque(kind: string, text: string): string {
  return Buffer.from(`grove-mock-${kind}:${createHash("sha256").update(text).digest("hex")}`).toString("base64");
}

/** A block whose input is streamed: `start` holds `{}`, the deltas the JSON text. */
function withStreamedInput(full: Json, input: Record<string, unknown>): ReplyBlock {
  return {
    full,
    start: { ...full, input: {} },
    deltas: argumentChunks(input).map((partial_json) => ({ type: "input_json_delta", partial_json })),
  };
}

/** A block that arrives whole in its `content_block_start` (tool results). */
const whole = (full: Json): ReplyBlock => ({ full, start: full, deltas: [] });

function serverToolBlocks(tool: ServerToolScript, id: string): ReplyBlock[] {
  switch (tool.kind) {
    case "web_search": {
      const input = { query: tool.query };
      return [
        withStreamedInput({ type: "server_tool_use", id, name: "web_search", input, caller: DIRECT }, input),
        whole({
          type: "web_search_tool_result",
          tool_use_id: id,
          caller: DIRECT,
          content: tool.results.map((r) => ({
            type: "web_search_result",
            url: r.url,
            title: r.title,
            page_age: r.pageAge ?? null,
            encrypted_content: opaque("search-result", r.url),
          })),
        }),
      ];
    }
    case "web_fetch": {
      const input = { url: tool.url };
      return [
        withStreamedInput({ type: "server_tool_use", id, name: "web_fetch", input, caller: DIRECT }, input),
        whole({
          type: "web_fetch_tool_result",
          tool_use_id: id,
          caller: DIRECT,
          content: {
            type: "web_fetch_result",
            url: tool.url,
            retrieved_at: "2026-01-01T00:00:00Z",
            content: {
              type: "document",
              title: tool.title ?? null,
              citations: null,
              source: { type: "text", media_type: "text/plain", data: tool.text },
            },
          },
        }),
      ];
    }
    case "code_execution": {
      const bash = (tool.variant ?? "bash") === "bash";
      const input = bash ? { command: tool.code } : { code: tool.code };
      const name = bash ? "bash_code_execution" : "code_execution";
      const outputType = bash ? "bash_code_execution_output" : "code_execution_output";
      return [
        withStreamedInput({ type: "server_tool_use", id, name, input, caller: DIRECT }, input),
        whole({
          type: bash ? "bash_code_execution_tool_result" : "code_execution_tool_result",
          tool_use_id: id,
          content: {
            type: bash ? "bash_code_execution_result" : "code_execution_result",
            stdout: tool.stdout,
            stderr: tool.stderr ?? "",
            return_code: tool.returnCode ?? 0,
            content: (tool.files ?? []).map((file_id) => ({ type: outputType, file_id })),
          },
        }),
      ];
    }
    case "mcp":
      return [
        withStreamedInput(
          { type: "mcp_tool_use", id, name: tool.name, server_name: tool.server, input: tool.input },
          tool.input,
        ),
        whole({
          type: "mcp_tool_result",
          tool_use_id: id,
          is_error: tool.isError === true,
          content: [{ type: "text", text: tool.output, citations: null }],
        }),
      ];
    default: {
      const unknown: never = tool;
      throw new Error(`unknown server tool ${JSON.stringify(unknown)}`);
    }
  }
}

function citation(c: ScriptCitation): Json {
  return {
    type: "web_search_result_location",
    url: c.url,
    title: c.title,
    cited_text: c.citedText,
    encrypted_index: opaque("citation", c.url),
  };
}

/** The blocks before the text: each server tool's use and result, in script order. */
export function leadingToolBlocks(plan: ReplyPlan, nextId: () => string): ReplyBlock[] {
  return plan.serverTools.flatMap((tool) =>
    serverToolBlocks(tool, `${tool.kind === "mcp" ? "mcptoolu" : "srvtoolu"}_mock${nextId()}`),
  );
}

/** The text block with its citations: whole, and as streamed (`citations_delta` first, then the text deltas). */
export function textBlock(plan: ReplyPlan): { full: Json; start: Json; citationDeltas: Json[] } {
  const citations = plan.citations.map(citation);
  return {
    full: citations.length > 0 ? { type: "text", text: plan.text, citations } : { type: "text", text: plan.text },
    start: { type: "text", text: "" },
    citationDeltas: citations.map((c) => ({ type: "citations_delta", citation: c })),
  };
}

/** The `tool_use` blocks after the text, one per scripted call. */
export function toolUseBlocks(plan: ReplyPlan, nextId: () => string): ReplyBlock[] {
  return plan.toolCalls.map((call) => {
    const id = call.id ?? `toolu_mock${nextId()}`;
    return withStreamedInput({ type: "tool_use", id, name: call.name, input: call.input, caller: DIRECT }, call.input);
  });
}

/** `server_tool_use` result blocks and the id field they answer. */
const SERVER_RESULT_TYPES = new Set([
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
]);

function blocksOf(message: unknown): Json[] {
  return isRecord(message) && Array.isArray(message.content) ? message.content.filter(isRecord) : [];
}

const idOf = (block: Json, key: "id" | "tool_use_id"): string => (typeof block[key] === "string" ? block[key] : "");

/**
 * The API's checks that tool calls and results pair up, with its messages:
 * 1. every `tool_use` of an assistant message has a `tool_result` in the next message;
 * 2. every `tool_result` answers a `tool_use` of the message before it;
 * 3. a server tool's result block (and an `mcp_tool_result`) follows its `server_tool_use`
 *    (`mcp_tool_use`) earlier in the same message.
 */
export function toolPairingViolation(messages: readonly unknown[]): string | null {
  for (let i = 0; i < messages.length; i++) {
    const blocks = blocksOf(messages[i]);
    const role = isRecord(messages[i]) ? messages[i] : {};
    if ((role as Json).role === "assistant") {
      const uses = blocks.filter((b) => b.type === "tool_use").map((b) => idOf(b, "id"));
      if (uses.length > 0) {
        const next = isRecord(messages[i + 1]) ? (messages[i + 1] as Json) : null;
        const answered = new Set(
          next?.role === "user"
            ? blocksOf(next)
                .filter((b) => b.type === "tool_result")
                .map((b) => idOf(b, "tool_use_id"))
            : [],
        );
        const missing = uses.filter((id) => !answered.has(id));
        if (missing.length > 0) {
          return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
        }
      }
      const seen = new Set<string>();
      for (let j = 0; j < blocks.length; j++) {
        const b = blocks[j] as Json;
        const type = String(b.type);
        if (type === "server_tool_use" || type === "mcp_tool_use") seen.add(idOf(b, "id"));
        const isServerResult = SERVER_RESULT_TYPES.has(type);
        if ((isServerResult || type === "mcp_tool_result") && !seen.has(idOf(b, "tool_use_id"))) {
          const use = isServerResult ? "server_tool_use" : "mcp_tool_use";
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`${type}\` blocks: ${idOf(b, "tool_use_id")}. Each \`${type}\` block must have a corresponding \`${use}\` block before it.`;
        }
      }
    }
    const prev = i > 0 && isRecord(messages[i - 1]) ? (messages[i - 1] as Json) : null;
    const offered = new Set(
      prev?.role === "assistant"
        ? blocksOf(prev)
            .filter((b) => b.type === "tool_use")
            .map((b) => idOf(b, "id"))
        : [],
    );
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j] as Json;
      if (b.type !== "tool_result" || offered.has(idOf(b, "tool_use_id"))) continue;
      return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${idOf(b, "tool_use_id")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  return null;
}

/** `usage.server_tool_use`: how many searches and fetches the reply made (null without any). */
export function serverToolUsage(plan: ReplyPlan): Json | null {
  const count = (kind: ServerToolScript["kind"]) => plan.serverTools.filter((t) => t.kind === kind).length;
  const searches = count("web_search");
  const fetches = count("web_fetch");
  return searches + fetches > 0 ? { web_search_requests: searches, web_fetch_requests: fetches } : null;
}
