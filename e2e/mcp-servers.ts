/**
 * The real MCP servers for the tool specs (scripts/mcp-servers.mjs, shared with the Node tests):
 * `@modelcontextprotocol/server-everything` in Streamable HTTP mode and a filesystem-style server over a
 * temporary folder, both on 127.0.0.1 free ports, both answering a browser page's CORS preflight.
 *
 * @example
 * test("lists the server's tools", async ({ page, mcp }) => {
 *   // type mcp.files.url into Settings → Tools → "Add MCP server"...
 *   mcp.files.setToken("t"); // the next request without `Authorization: Bearer t` gets 401
 * });
 */
import { type McpServers, startMcpServers } from "../scripts/mcp-servers.mjs";

export type { EverythingServer, FilesServer, McpServers } from "../scripts/mcp-servers.mjs";

export function startTestMcpServers(): Promise<McpServers> {
  return startMcpServers();
}
