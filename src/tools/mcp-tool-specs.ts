/**
 * The MCP tools a chat offers the model, as function tools (issue 28): each gets a name the providers
 * accept (`^[a-zA-Z0-9_-]{1,64}$`, unique across the chat's servers: `<server>__<tool>`), and a map
 * back from that name to the server and the tool's own name, so a call is routed to the one server it
 * names and nowhere else. Descriptions are passed as the server wrote them (the model reads them as
 * data; nothing in them grants anything). Pure.
 */
import type { FunctionToolSpec } from "../core/agent/tool-spec";
import type { McpToolInfo } from "./mcp-types";

/** A chat's server: Grove's id for it, a short name, its tools as listed. */
export type McpServerTools = { readonly id: string; readonly name: string; readonly tools: readonly McpToolInfo[] };

export type McpToolRoute = { readonly serverId: string; readonly tool: string };

const MAX_NAME = 64;

const slug = (s: string): string => s.replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/^_+|_+$/g, "") || "tool";

/** The function tools for `servers`, and the route of each name. */
export function mcpToolSpecs(servers: readonly McpServerTools[]): {
  specs: FunctionToolSpec[];
  routes: ReadonlyMap<string, McpToolRoute>;
} {
  const specs: FunctionToolSpec[] = [];
  const routes = new Map<string, McpToolRoute>();
  for (const server of servers) {
    for (const tool of server.tools) {
      const base = `${slug(server.name).slice(0, 20)}__${slug(tool.name)}`.slice(0, MAX_NAME);
      let name = base;
      for (let i = 2; routes.has(name); i++) name = `${base.slice(0, MAX_NAME - String(i).length - 1)}_${i}`;
      routes.set(name, { serverId: server.id, tool: tool.name });
      specs.push({
        kind: "function",
        name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.inputSchema,
      });
    }
  }
  return { specs, routes };
}
