/**
 * Which provider-run tools each wire api has (issue 28), so the composer offers only those: Anthropic
 * Messages has web search, web fetch, code execution and its MCP connector; OpenAI Responses has web
 * search, the code interpreter and the `mcp` tool; Chat Completions (OpenAI-compatible servers) has none.
 * Function tools (MCP servers the browser connects to, Grove's own) work on all three.
 */
import type { ServerToolSpec } from "../core/agent/tool-spec";
import type { ApiKind } from "../core/session/entries";

export type ServerToolKindSpec = ServerToolSpec["kind"];

const SERVER_TOOLS: Readonly<Record<ApiKind, readonly ServerToolKindSpec[]>> = {
  "anthropic-messages": ["web_search", "web_fetch", "code_execution", "mcp"],
  "openai-responses": ["web_search", "code_execution", "mcp"],
  "openai-chat": [],
};

/** The provider-run tools `api` can use. */
export function serverToolsFor(api: ApiKind): readonly ServerToolKindSpec[] {
  return SERVER_TOOLS[api];
}

/** Whether the provider behind `api` can connect to an MCP server itself ("Let the provider connect"). */
export const providerConnectsMcp = (api: ApiKind): boolean => SERVER_TOOLS[api].includes("mcp");
