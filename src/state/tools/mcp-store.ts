/**
 * The MCP servers' live status (issue 28), by server id: connecting, connected with its tools, or
 * why not. Facts only; the connections themselves live in mcp-servers.ts (not renderable data).
 */
import type { McpFailure, McpToolInfo } from "../../tools/mcp-types";
import { defineStore } from "../app/store-registry";

export type McpServerStatus =
  | { readonly kind: "connecting" }
  | { readonly kind: "connected"; readonly tools: readonly McpToolInfo[] }
  | { readonly kind: "failed"; readonly failure: McpFailure }
  /** "Let the provider connect": the browser does not connect; the provider does, when a chat uses it. */
  | { readonly kind: "by-provider" };

export const useMcpStore = defineStore<{ status: Record<string, McpServerStatus> }>(() => ({ status: {} }));

/** The status in plain words, as the server's list item says it. */
export function mcpStatusText(status: McpServerStatus | undefined): string {
  if (!status) return "Not connected yet";
  switch (status.kind) {
    case "connecting":
      return "Connecting…";
    case "connected":
      return `Connected · ${status.tools.length} ${status.tools.length === 1 ? "tool" : "tools"}`;
    case "by-provider":
      return "The provider connects to it (not this browser)";
    case "failed":
      return status.failure.kind === "auth"
        ? `Not connected: the server refused the credentials (${status.failure.status ?? 401}). Check the Headers.`
        : `Not connected: ${status.failure.message}`;
    default: {
      const never: never = status;
      return String(never);
    }
  }
}
